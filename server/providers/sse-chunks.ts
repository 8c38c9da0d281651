import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { isCopyableLiteral } from './json-literals';
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

/** A string with storage of its own, not a view into the network read it was cut from. */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The end of the JSON string literal opening at `start` (the index of its closing quote), or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 92) i += 1;
    else if (c === 34) return i;
  }
  return -1;
}

/** A JSON string literal's value, or undefined when `literal` is not exactly one string literal. */
function stringValue(literal: string): string | undefined {
  if (literal.length < 2 || literal.charCodeAt(0) !== 34 || literal.charCodeAt(literal.length - 1) !== 34) return undefined;
  if (literal.indexOf('\\') < 0) return literal.indexOf('"', 1) === literal.length - 1 ? literal.slice(1, -1) : undefined;
  try {
    const value = JSON.parse(literal) as unknown;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the frames of one stream. A provider streams text as frames that differ only in their
 * text (same id, model, created, fields and order), so after one such frame has been parsed,
 * a frame that is the same text around a different string literal is read as that literal
 * without parsing anything: structurally it is the same JSON with another content value. The
 * literal is given back as it came (quotes and escapes included), to be copied into the
 * outgoing frame and decoded only where the text is needed; a literal that cannot be copied
 * safely comes back re-encoded. Any other frame is parsed whole (and may become the new
 * pattern). Returns the JSON string literal of a text-only frame, else the parsed chunk or `DONE`.
 */
export function createFrameReader(): (data: string) => CompletionChunk | typeof DONE | string {
  let prefix = '';
  let suffix = '';
  let learned = false;

  /** Remembers the text around the content of a frame that carries text and nothing else we read. */
  const learn = (data: string, chunk: CompletionChunk): void => {
    const choice = chunk.choices?.length === 1 ? chunk.choices[0] : undefined;
    const content = choice?.delta?.content;
    learned = false;
    if (!choice || chunk.usage || choice.finish_reason || choice.delta?.tool_calls || typeof content !== 'string' || content === '') return;
    const key = data.indexOf('"content":');
    if (key < 0 || key !== data.lastIndexOf('"content":')) return;
    let start = key + 10;
    while (data.charCodeAt(start) === 32) start += 1;
    const end = data.charCodeAt(start) === 34 ? stringEnd(data, start) : -1;
    if (end < 0 || stringValue(data.slice(start, end + 1)) !== content) return;
    prefix = ownCopy(data.slice(0, start));
    suffix = ownCopy(data.slice(end + 1));
    learned = true;
  };

  return (data) => {
    const length = data.length;
    // Cut out and compared with `===` to strings of their own: measured several times cheaper per
    // frame than `startsWith`/`endsWith` against slices of an earlier frame.
    if (learned && length >= prefix.length + suffix.length + 2 && data.slice(0, prefix.length) === prefix && data.slice(length - suffix.length) === suffix) {
      const literal = data.slice(prefix.length, length - suffix.length);
      if (isCopyableLiteral(literal)) return literal;
      const text = stringValue(literal);
      if (text !== undefined) return JSON.stringify(text);
    }
    const chunk = parseFrame(data);
    if (chunk !== DONE) learn(data, chunk);
    return chunk;
  };
}

/**
 * The data of one SSE event block (the text between blank lines, `\n` line ends): its `data`
 * lines joined with newlines, or undefined when it has none (comments, other fields).
 */
function blockData(block: string): string | undefined {
  let data: string | undefined;
  for (const line of block.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const value = lineData(line, 0, line.length);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}

/** The value of the `data:` line from `start` to `end` of `text` (one optional space after the colon). */
function lineData(text: string, start: number, end: number): string {
  return text.slice(text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5, end);
}

/**
 * The frames of an OpenAI-style SSE body, one batch per network read (SSE rules: frames end at
 * a blank line, several `data:` lines join with newlines, comments and other fields are
 * skipped, `\r\n` and `\r` end lines too): a text-only frame as its JSON string literal (see
 * `createFrameReader`), any other frame as its JSON, `DONE` for `[DONE]`. A frame whose JSON
 * holds `error` throws a ProviderError with its message; JSON that does not parse throws. The
 * body is read to its end (keep-alive reuse); callers skip anything after `DONE`. A last frame
 * without its blank line still counts. A character split between two reads is decoded whole.
 */
export async function* sseFrameBatches(body: Readable): AsyncGenerator<Array<CompletionChunk | typeof DONE | string>> {
  const read = createFrameReader();
  // undici's body ignores setEncoding: its reads are bytes, and a character may be split between two.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const part of body as AsyncIterable<Buffer | string>) {
    let text = rest + (typeof part === 'string' ? part : decoder.write(part));
    // A `\r` at the end may be the first half of `\r\n`: it waits for the next read.
    const held = text.endsWith('\r') ? 1 : 0;
    if (text.indexOf('\r') >= 0) text = text.slice(0, text.length - held).replace(/\r\n?/g, '\n') + (held ? '\r' : '');
    const batch: Array<CompletionChunk | typeof DONE | string> = [];
    let start = 0;
    try {
      for (;;) {
        // Blank lines in a row end one frame: the extra ones are skipped.
        while (text.charCodeAt(start) === 10) start += 1;
        // The usual frame is one line: its first line end is followed by the blank line.
        const lineEnd = text.indexOf('\n', start);
        if (lineEnd < 0) break;
        const end = text.charCodeAt(lineEnd + 1) === 10 ? lineEnd : text.indexOf('\n\n', lineEnd);
        if (end < 0) break;
        const data = end === lineEnd && text.startsWith('data:', start) ? lineData(text, start, end) : blockData(text.slice(start, end));
        if (data !== undefined) batch.push(read(data));
        start = end + 2;
      }
    } catch (error) {
      // The frames before the bad one still count.
      if (batch.length > 0) yield batch;
      throw error;
    }
    rest = text.slice(start);
    if (batch.length > 0) yield batch;
  }
  const tail = (rest + decoder.end()).replace(/\r$/, '').replace(/\n+$/, '');
  const data = tail ? blockData(tail) : undefined;
  if (data !== undefined) yield [read(data)];
}

/**
 * The frames of an OpenAI-style SSE body one by one, as `sseFrameBatches` reads them, text-only
 * frames given back their chunk shape.
 */
export async function* sseChunks(body: Readable): AsyncGenerator<CompletionChunk | typeof DONE> {
  for await (const batch of sseFrameBatches(body)) {
    for (const frame of batch) yield typeof frame === 'string' ? { choices: [{ delta: { content: JSON.parse(frame) as string } }] } : frame;
  }
}
