import type { ServerResponse } from 'node:http';
import type { CompletionSource, CompletionStatus, CompletionUsage } from '../contracts/completions';
import type { MessageToolStep } from '../contracts/chats';
import type { UsedMemory } from '../contracts/memories';
import type { ToolCall } from '../providers';
import type { PipelineEvent } from './pipeline-types';

/** Identity fields shared by every chunk of one completion. */
export interface ChunkIdentity {
  id: string;
  created: number;
  model: string;
}

/**
 * Which fields beyond OpenAI's a stream carries:
 * - `parley` (`/api/chat/completions`): `sources`, `status` and `tool_step` frames of their own,
 *   the saved chat and message ids on a frame before any other and on the last frame, errors as
 *   `provider_error`;
 * - `openai` (`/v1/chat/completions`): OpenAI's chunks only (tool calls, a usage chunk), errors as
 *   `api_error`, plus `sources` on the first chunk when the model's knowledge was used.
 */
export type ChunkExtensions = 'parley' | 'openai';

/** Where an answer was saved, named on the last frame (`parley` only). */
export type SavedIds = Record<string, string | undefined>;

const EVENT_STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

/**
 * Once the answer's text has begun, writes are at least this far apart: a provider that sends one
 * token a millisecond then costs a write (a system call, an HTTP chunk, a packet, a read in the
 * client) every few tokens, not every token. The first text always leaves at once, so the time to
 * the first token is untouched; later tokens wait at most this long, well under a screen's frame.
 */
const WRITE_GAP_MS = 8;

/**
 * Writes a completion as Server-Sent Events in OpenAI's `chat.completion.chunk` format, for both
 * APIs (see `ChunkExtensions`). Each text frame carries only its new fragment (the frame's fixed
 * parts are pre-encoded once), frames written in the same turn of the event loop leave in one
 * write (one HTTP chunk, one packet: every network read of the provider that turn, not one write
 * per read), writes after the first text are at least `WRITE_GAP_MS` apart, and a slow client's
 * backpressure is awaited so it reaches the provider instead of piling up in memory.
 */
export class ChunkWriter {
  private started = false;
  private sentRole = false;
  /** A frame sent before the first one written (the saved ids). */
  private preamble = '';
  /** Frames written this turn of the event loop, sent together once its I/O is done. */
  private pending = '';
  private scheduled = false;
  /** When the last write with text left (`performance.now()`); 0 before the first. */
  private textWrittenAt = 0;
  /** Whether `pending` holds text. */
  private pendingText = false;
  /** Set while the client is not keeping up; writers wait on it. */
  private blocked: Promise<void> | undefined;
  private readonly head: string;
  private readonly contentPrefix: string;
  private readonly contentPrefixWithRole: string;
  private readonly contentSuffix = '},"finish_reason":null}]}\n\n';

  constructor(
    private readonly res: ServerResponse,
    identity: ChunkIdentity,
    private readonly extensions: ChunkExtensions,
  ) {
    this.head = `{"id":${JSON.stringify(identity.id)},"object":"chat.completion.chunk","created":${JSON.stringify(identity.created)},"model":${JSON.stringify(identity.model)}`;
    this.contentPrefix = `data: ${this.head},"choices":[{"index":0,"delta":{"content":`;
    this.contentPrefixWithRole = `data: ${this.head},"choices":[{"index":0,"delta":{"role":"assistant","content":`;
  }

  /** True once the status line and headers went out (errors can no longer be HTTP statuses). */
  get hasStarted(): boolean {
    return this.started;
  }

  /** True when the client is gone. */
  get isClosed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  private start(): void {
    this.started = true;
    this.res.writeHead(200, EVENT_STREAM_HEADERS);
    this.pending = this.preamble + this.pending;
    this.preamble = '';
  }

  /** Queues frames; frames queued in the same loop turn leave in one write. Resolves late only under backpressure. */
  private write(frames: string): void | Promise<void> {
    if (this.isClosed) return;
    if (!this.started) this.start();
    this.pending += frames;
    if (!this.scheduled) {
      this.scheduled = true;
      const wait = this.textWrittenAt === 0 ? 0 : this.textWrittenAt + WRITE_GAP_MS - performance.now();
      if (wait > 0) setTimeout(this.flush, wait);
      else setImmediate(this.flush);
    }
    return this.blocked;
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const data = this.pending;
    this.pending = '';
    if (!data || this.isClosed) return;
    if (this.pendingText) this.textWrittenAt = performance.now();
    this.pendingText = false;
    // As bytes: a string would be measured (a scan) for its chunk header, then encoded (another).
    if (this.res.write(Buffer.from(data)) || this.blocked) return;
    this.blocked = new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        this.blocked = undefined;
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  };

  /** A frame: the identity, then `choices`, then the other fields, in that order. */
  private frame(fields: Record<string, unknown>, choices: unknown[] = []): void | Promise<void> {
    const body = JSON.stringify({ choices, ...fields });
    return this.write(`data: ${this.head},${body.slice(1)}\n\n`);
  }

  /** A frame whose one choice carries `delta` (with the assistant role on the first), then `fields`. */
  private delta(delta: Record<string, unknown>, fields: Record<string, unknown> = {}): void | Promise<void> {
    const withRole = this.sentRole ? delta : { role: 'assistant', ...delta };
    this.sentRole = true;
    return this.frame(fields, [{ index: 0, delta: withRole, finish_reason: null }]);
  }

  /** A text fragment. */
  content(text: string): void | Promise<void> {
    return this.literals([JSON.stringify(text)]);
  }

  /**
   * Text fragments given as JSON string literals (quotes included, safe to copy): each becomes
   * a text frame with the literal copied as it is, the same frame `content` writes for its text.
   */
  literals(literals: readonly string[]): void | Promise<void> {
    if (this.isClosed) return;
    let frames = '';
    for (const literal of literals) {
      frames += (this.sentRole ? this.contentPrefix : this.contentPrefixWithRole) + literal + this.contentSuffix;
      this.sentRole = true;
    }
    this.pendingText = true;
    return this.write(frames);
  }

  /** The sources the model's knowledge contributed: a frame of their own (`parley`), or on an empty first chunk (`openai`). */
  sources(sources: CompletionSource[]): void | Promise<void> {
    return this.extensions === 'parley' ? this.frame({ sources }) : this.delta({ content: '' }, { sources });
  }

  /** The caller's memories the answer was given (the Parley UI only: /v1 callers get the answer alone). */
  memories(memories: UsedMemory[]): void | Promise<void> {
    return this.extensions === 'parley' ? this.frame({ memories }) : undefined;
  }

  /** A status line while the answer is prepared (`parley` only). */
  status(status: CompletionStatus): void | Promise<void> {
    return this.extensions === 'parley' ? this.frame({ status }) : undefined;
  }

  /** A tool call that just finished (`parley` only). */
  toolStep(step: MessageToolStep): void | Promise<void> {
    return this.extensions === 'parley' ? this.frame({ tool_step: step }) : undefined;
  }

  /** Calls of the caller's own functions (`openai` only: the Parley UI runs its tools itself). */
  toolCalls(calls: ToolCall[]): void | Promise<void> {
    if (this.extensions !== 'openai') return undefined;
    return this.delta({ tool_calls: calls.map((call, index) => ({ index, id: call.id, type: 'function', function: call.function })) });
  }

  /**
   * Where the turn is saved (`parley` only): a frame that goes out first, with the first frame
   * written (it does not start the response: a provider failing before any text is still a plain
   * HTTP error).
   */
  saved(ids: SavedIds): void {
    if (this.extensions !== 'parley' || this.started) return;
    const body = JSON.stringify({ choices: [], ...ids });
    this.preamble = `data: ${this.head},${body.slice(1)}\n\n`;
  }

  /** Writes one pipeline event. */
  event(event: PipelineEvent): void | Promise<void> {
    switch (event.type) {
      case 'saved':
        return this.saved({ chat_id: event.chatId, message_id: event.messageId, ...(event.userMessageId ? { user_message_id: event.userMessageId } : {}) });
      case 'content':
        return this.content(event.text);
      case 'literals':
        return this.literals(event.literals);
      case 'sources':
        return this.sources(event.sources);
      case 'memories':
        return this.memories(event.memories);
      case 'status':
        return this.status(event.status);
      case 'tool_step':
        return this.toolStep(event.step);
      case 'tool_calls':
        return this.toolCalls(event.calls);
      default:
        return undefined;
    }
  }

  /**
   * The last frames: why the answer ended, with usage when known. `parley` puts usage and the
   * saved ids on the finish frame; `openai` sends a usage chunk (empty `choices`) after it.
   */
  async finish(reason: string | null, usage: CompletionUsage | undefined, saved: SavedIds = {}): Promise<void> {
    const finished = [{ index: 0, delta: {}, finish_reason: reason }];
    if (this.extensions === 'parley') return this.frame({ ...(usage ? { usage } : {}), ...saved }, finished);
    if (!this.sentRole) await this.delta({ content: '' });
    await this.frame({}, finished);
    if (usage) await this.frame({ usage });
  }

  /** A failure after the stream began, which clients show (OpenAI clients raise it as an API error); the stream ends after it. */
  error(message: string, saved: SavedIds = {}): void | Promise<void> {
    if (this.extensions === 'openai') return this.frame({ error: { message, type: 'api_error', code: 'provider_failed' } });
    return this.frame({ error: { message, type: 'provider_error', code: 'PROVIDER_FAILED' }, ...saved }, [{ index: 0, delta: {}, finish_reason: 'error' }]);
  }

  /** `data: [DONE]` and the end of the response (with any frames still queued). */
  end(): void {
    if (this.isClosed) return;
    if (!this.started) this.start();
    const data = this.pending;
    this.pending = '';
    this.res.end(`${data}data: [DONE]\n\n`);
  }
}
