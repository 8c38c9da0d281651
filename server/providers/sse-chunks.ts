import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ToolCallDelta } from './tool-calls';

/** One `chat.completion.chunk` as an OpenAI-compatible provider streams it (the fields we read). */
export interface CompletionChunk {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: ToolCallDelta[] }; finish_reason?: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens?: number; total_tokens: number } | null;
}

/**
 * The JSON chunks of an OpenAI-style SSE response body, ending at `[DONE]` or the body's end.
 * Mirrors the openai client's rules: a frame whose JSON holds `error` throws what
 * `errorOf(error)` makes (the client's APIError); unparseable JSON throws. Nothing after `[DONE]` is read as data.
 */
export async function* parseSseChunks(response: Response, errorOf: (error: object) => Error): AsyncGenerator<CompletionChunk> {
  if (!response.body) return;
  let pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message) });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let finished = false;
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      if (pending.length === 0) continue;
      const messages = pending;
      pending = [];
      // After `[DONE]` the body is read on to its end (as the client does) so the connection can be reused.
      if (finished) continue;
      for (const message of messages) {
        if (message.data.startsWith('[DONE]')) {
          finished = true;
          break;
        }
        const data = JSON.parse(message.data) as CompletionChunk & { error?: unknown };
        if (data && data.error) throw errorOf(data.error as object);
        yield data;
      }
    }
  } finally {
    if (!ended) reader.cancel().catch(() => undefined);
  }
}
