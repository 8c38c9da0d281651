import type { ProviderKind } from '../contracts/providers';
import type { ConfigService } from '../config';
import type { TaskConfig } from '../contracts/tasks';
import type { Models, ResolvedModel } from '../models';
import { badRequest, HttpError } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import { isAbortError } from '../providers';
import type { Role } from '../contracts/auth';
import { TaskConfigSection } from './tasks-config';

/** Who a task runs for (the task model must be usable by them). */
export interface TaskCaller {
  id: string;
  role: Role;
}

/** The chat model a task belongs to, if any: its id and the kind of provider answering it. */
export interface ChatModelRef {
  id: string;
  kind?: ProviderKind;
}

/** Longest a task call may take. */
const TASK_TIMEOUT_MS = 60_000;

/** Which models to try for a task, in order: TASK_MODEL_EXTERNAL for compat chats, TASK_MODEL, then the chat's own model. */
export function taskModelCandidates(cfg: Pick<TaskConfig, 'TASK_MODEL' | 'TASK_MODEL_EXTERNAL'>, chat: ChatModelRef | undefined, explicit?: string): string[] {
  const list: string[] = [];
  if (explicit) list.push(explicit);
  else {
    if (cfg.TASK_MODEL_EXTERNAL && (chat?.kind === 'compat' || (!chat && !cfg.TASK_MODEL))) list.push(cfg.TASK_MODEL_EXTERNAL);
    if (cfg.TASK_MODEL) list.push(cfg.TASK_MODEL);
    if (chat) list.push(chat.id);
  }
  return [...new Set(list)];
}

/** Runs one task prompt on the task model and returns the raw answer. */
export function createTaskRunner(deps: { config: ConfigService; models: Pick<Models, 'resolveForChat'>; log: Logger }) {
  const { config, models, log } = deps;

  async function pick(caller: TaskCaller, chat: ChatModelRef | undefined, explicit?: string): Promise<ResolvedModel> {
    const candidates = taskModelCandidates(await config.get(TaskConfigSection), chat, explicit);
    if (candidates.length === 0) throw badRequest("No model to run this task: send 'model' or set TASK_MODEL", 'NO_TASK_MODEL');
    let lastError: unknown;
    for (const id of candidates) {
      try {
        return await models.resolveForChat(caller, id);
      } catch (error) {
        lastError = error;
        log.debug({ model: id, err: error }, 'task model not usable, trying the next');
      }
    }
    throw lastError;
  }

  return {
    /** The task model's answer to `prompt`. Provider failures become 502; a missing model keeps its own error. */
    async run(caller: TaskCaller, prompt: string, options: { chat?: ChatModelRef; model?: string; maxTokens?: number; signal?: AbortSignal } = {}): Promise<string> {
      const resolved = await pick(caller, options.chat, options.model);
      const signals = [AbortSignal.timeout(TASK_TIMEOUT_MS), ...(options.signal ? [options.signal] : [])];
      try {
        const result = await resolved.provider.chat(
          { model: resolved.providerModelId, messages: [{ role: 'user', content: prompt }], ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}) },
          AbortSignal.any(signals),
        );
        return result.content;
      } catch (error) {
        if (isAbortError(error) && options.signal?.aborted) throw error;
        const message = error instanceof Error ? error.message : 'unknown error';
        throw new HttpError(502, 'TASK_MODEL_FAILED', `The task model failed: ${message}`);
      }
    },
  };
}
export type TaskRunner = ReturnType<typeof createTaskRunner>;
