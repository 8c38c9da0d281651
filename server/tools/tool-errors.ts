/**
 * A tool call failed in a way the model should hear about (bad arguments, the remote API said
 * no, a limit was hit). The message is given to the model as the call's result.
 */
export class ToolCallError extends Error {
  constructor(
    message: string,
    /** Set when the user must authorize an MCP server first. */
    readonly authorizationUrl?: string,
  ) {
    super(message);
    this.name = 'ToolCallError';
  }
}

/** The longest tool result handed to the model, in characters. */
export const MAX_RESULT_CHARS = 100_000;

/** Cuts a result to {@link MAX_RESULT_CHARS}, saying so. */
export function clipResult(text: string): string {
  return text.length <= MAX_RESULT_CHARS ? text : `${text.slice(0, MAX_RESULT_CHARS)}\n[cut: the result was ${text.length} characters]`;
}

/** A function name the providers accept: letters, digits, `_` and `-`, at most 64 characters. */
export function functionName(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return (cleaned || 'call').slice(0, 64);
}
