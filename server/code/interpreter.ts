import type { CodeInterpreterPlug, PreparedInterpreter } from '../completions';
import type { Role } from '../contracts/auth';
import type { MessageToolStep } from '../contracts/chats';
import type { CodeExecutionConfig } from '../contracts/code';
import { forbidden } from '../platform/http/errors';
import { findCodeBlock } from './code-blocks';
import type { CodeRun, CodeRunner } from './code-runner';
import { DEFAULT_CODE_INTERPRETER_PROMPT } from './interpreter-prompt';

/** The function models that call tools natively use to run code. */
export const EXECUTE_PYTHON = {
  type: 'function' as const,
  function: {
    name: 'execute_python',
    description: 'Runs Python code in an offline sandbox (standard library and matplotlib.pyplot drawing SVG; no network, no numpy or pandas) and answers what it printed, its last value, errors and the files it wrote in /mnt/data.',
    parameters: { type: 'object', properties: { code: { type: 'string', description: 'The Python code to run' } }, required: ['code'] },
  },
};

/** Longest output the model reads back from one run. */
const MODEL_OUTPUT_LIMIT = 8000;
/** Longest output kept on the saved step. */
const STEP_OUTPUT_LIMIT = 4000;

const clip = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

/** What the model reads after a run: output, value, error, and the files made (shown to the person already). */
export function runReport(run: CodeRun): string {
  const parts: string[] = [];
  if (run.stdout) parts.push(`stdout:\n${clip(run.stdout, MODEL_OUTPUT_LIMIT)}`);
  if (run.stderr) parts.push(`stderr:\n${clip(run.stderr, MODEL_OUTPUT_LIMIT / 2)}`);
  if (run.result !== null) parts.push(`value of the last expression: ${clip(run.result, MODEL_OUTPUT_LIMIT / 2)}`);
  if (run.error) parts.push(`error:\n${clip(run.error, MODEL_OUTPUT_LIMIT / 2)}`);
  if (run.files.length > 0) parts.push(`files written (already shown to the user): ${run.files.map((f) => `${f.name} (${f.type})`).join(', ')}`);
  if (run.skipped.length > 0) parts.push(`files not kept: ${run.skipped.join(', ')}`);
  return parts.length > 0 ? parts.join('\n\n') : 'The code ran and printed nothing.';
}

/** The step shown under the answer and saved with it (a tool step of kind `code`). */
export function runStep(code: string, callId: string, run: CodeRun): MessageToolStep {
  const shown = [run.stdout, run.stderr, run.result !== null ? run.result : ''].filter(Boolean).join('\n');
  return {
    id: callId,
    name: EXECUTE_PYTHON.function.name,
    arguments: JSON.stringify({ code }),
    result: clip(shown, STEP_OUTPUT_LIMIT),
    error: run.error,
    duration_ms: run.durationMs,
    kind: 'code',
    files: run.files,
  };
}

/**
 * The code interpreter as the completion pipeline uses it: refused when an admin turned it off
 * (ENABLE_CODE_INTERPRETER) or the caller lacks `features.code_interpreter`; warms the caller's
 * sandbox as the answer starts, so the first run does not wait for Python to load.
 */
export function createInterpreterPlug(deps: { runner: CodeRunner; config: () => Promise<CodeExecutionConfig>; allowed(user: { id: string; role: Role }): Promise<boolean> }): CodeInterpreterPlug {
  return {
    async prepare({ user, chatId, fileIds }): Promise<PreparedInterpreter> {
      const config = await deps.config();
      if (!config.ENABLE_CODE_INTERPRETER) throw forbidden('The code interpreter is turned off', 'CODE_INTERPRETER_DISABLED');
      if (!(await deps.allowed(user))) throw forbidden("This needs the permission 'features.code_interpreter'", 'PERMISSION_REQUIRED');
      deps.runner.warm(user.id);
      const space = chatId ? `chat:${chatId}` : `answer:${Date.now()}:${Math.random()}`;
      return {
        prompt: config.CODE_INTERPRETER_PROMPT_TEMPLATE?.trim() || DEFAULT_CODE_INTERPRETER_PROMPT,
        maxRounds: config.CODE_INTERPRETER_MAX_ROUNDS,
        tool: EXECUTE_PYTHON,
        findBlock: findCodeBlock,
        async run(code, callId) {
          const run = await deps.runner.run({ user, space, fileIds }, code).catch((error: unknown): CodeRun => ({
            stdout: '',
            stderr: '',
            result: null,
            error: error instanceof Error ? error.message : String(error),
            files: [],
            skipped: [],
            durationMs: 0,
          }));
          return { text: runReport(run), step: runStep(code, callId, run) };
        },
      };
    },
  };
}
