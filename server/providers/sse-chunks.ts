import type { IncomingMessage } from 'node:http';
import { lineBatches } from './http-stream';
import { ProviderError } from './provider';
import type { ToolCallDelta } from './tool-calls';

/** One `chat.completion.chunk` as an OpenAI-compatible provider streams it (the fields we read). */
export interface CompletionChunk {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: ToolCallDelta[] }; finish_reason?: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens?: number; total_tokens: number } | null;
}

/** Marks the `data: [DONE]` frame. */
export const DONE = Symbol('done');

/** The message of an upstream error as the openai client words it: `404 The model … does not exist`. */
export function upstreamErrorMessage(status: number | undefined, bodyText: string): string {
  let error: unknown;
  try {
    error = (JSON.parse(bodyText) as { error?: unknown })?.error;
  } catch {
    error = undefined;
  }
  const inner = (error as { message?: unknown } | undefined)?.message;
  const message = inner ? (typeof inner === 'string' ? inner : JSON.stringify(inner)) : error ? JSON.stringify(error) : bodyText.trim();
  if (status && message) return `${status} ${message}`;
  if (status) return `${status} status code (no body)`;
  return message || 'The provider failed';
}

function parseFrame(data: string): CompletionChunk | typeof DONE {
  if (data.startsWith('[DONE]')) return DONE;
  const chunk = JSON.parse(data) as CompletionChunk & { error?: unknown };
  if (chunk && chunk.error) throw new ProviderError('compat', upstreamErrorMessage(undefined, JSON.stringify({ error: chunk.error })));
  return chunk;
}

/**
 * The frames of an OpenAI-style SSE body: each `data:` frame's JSON (SSE rules: frames end at a
 * blank line, several `data:` lines join with newlines, comments and other fields are skipped),
 * `DONE` for `[DONE]`. A frame whose JSON holds `error` throws a ProviderError with its message;
 * JSON that does not parse throws. The body is read to its end (keep-alive reuse); callers skip
 * anything after `DONE`.
 */
export async function* sseChunks(body: IncomingMessage): AsyncGenerator<CompletionChunk | typeof DONE> {
  let data: string | undefined;
  for await (const lines of lineBatches(body)) {
    for (let line of lines) {
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (data !== undefined) yield parseFrame(data);
        data = undefined;
      } else if (line.startsWith('data:')) {
        const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
        data = data === undefined ? value : `${data}\n${value}`;
      }
    }
  }
  if (data !== undefined) yield parseFrame(data);
}
