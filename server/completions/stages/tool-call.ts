import type { MessageToolStep } from '../../contracts/chats';
import type { ToolCall } from '../../providers';
import type { ToolSet } from '../pipeline-types';

/** Longest tool result kept on a saved step; the model still receives the whole result. */
export const MAX_SAVED_RESULT = 4000;

/** What one tool call gave: the text for the model and the step to show and save. */
export interface ToolCallResult {
  text: string;
  step: MessageToolStep;
}

function failureMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'The tool failed';
}

/**
 * Runs one tool call and times it. A failing tool becomes an `Error: …` text for the model and
 * a step with its error; null when the answer was stopped while the tool ran.
 */
export async function runToolCall(tools: ToolSet, call: ToolCall, signal: AbortSignal): Promise<ToolCallResult | null> {
  const started = performance.now();
  const base = { id: call.id, name: call.function.name, arguments: call.function.arguments || '{}' };
  try {
    const text = await tools.execute(call, signal);
    const result = text.length > MAX_SAVED_RESULT ? `${text.slice(0, MAX_SAVED_RESULT)}…` : text;
    return { text, step: { ...base, result, error: null, duration_ms: Math.round(performance.now() - started) } };
  } catch (error) {
    if (signal.aborted) return null;
    const message = failureMessage(error);
    return { text: `Error: ${message}`, step: { ...base, result: '', error: message, duration_ms: Math.round(performance.now() - started) } };
  }
}
