import type { CompletionMessage, CompletionRequest } from '../../contracts/completions';
import type { Models, ResolvedModel } from '../../models';
import type { ChatMessage as ProviderMessage } from '../../providers';
import type { CompletionCaller, GenerationParams } from '../pipeline-types';

/** The model to call, the conversation with the model's system prompt first, and the merged settings. */
export interface ModelStageResult {
  resolved: ResolvedModel;
  messages: ProviderMessage[];
  params: GenerationParams;
}

const GENERATION_KEYS = ['temperature', 'max_tokens', 'top_p', 'seed', 'stop'] as const;

function textOf(content: CompletionMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function toProviderMessage(m: CompletionMessage): ProviderMessage {
  const message: ProviderMessage = { role: m.role, content: m.content as ProviderMessage['content'] };
  if (m.tool_calls) message.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }));
  if (m.tool_call_id !== undefined) message.tool_call_id = m.tool_call_id;
  if (m.name !== undefined) message.name = m.name;
  return message;
}

/** Puts the model's system prompt first: merged into the request's own system message when there is one. */
export function withSystemPrompt(messages: ProviderMessage[], system: string | undefined): ProviderMessage[] {
  if (!system) return messages;
  const [first, ...rest] = messages;
  if (first?.role === 'system') {
    const own = textOf(first.content as CompletionMessage['content']);
    return [{ role: 'system', content: own ? `${system}\n\n${own}` : system }, ...rest];
  }
  return [{ role: 'system', content: system }, ...messages];
}

/** Model settings, overridden by the request's `params`, overridden by its top-level fields. */
export function mergeParams(model: ResolvedModel['params'], request: CompletionRequest): GenerationParams {
  const out: Record<string, unknown> = {};
  for (const key of GENERATION_KEYS) {
    const value = request[key] ?? request.params?.[key] ?? model[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out as GenerationParams;
}

/** Stage 1: resolve the model (custom → base, access checked) and shape the conversation. */
export async function resolveModelStage(models: Pick<Models, 'resolveForChat'>, user: CompletionCaller, request: CompletionRequest): Promise<ModelStageResult> {
  const resolved = await models.resolveForChat(user, request.model);
  const messages = withSystemPrompt(request.messages.map(toProviderMessage), resolved.params.system);
  return { resolved, messages, params: mergeParams(resolved.params, request) };
}
