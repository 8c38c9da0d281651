import type { ServerResponse } from 'node:http';
import type { CompletionStatus, CompletionUsage } from '../contracts/completions';
import type { PipelineEvent } from './pipeline-types';

/** Identity fields shared by every chunk of one completion. */
export interface ChunkIdentity {
  id: string;
  created: number;
  model: string;
}

/**
 * Writes a completion as Server-Sent Events in the OpenAI chunk format. Each content frame
 * carries only its new fragment (the frame's fixed parts are pre-encoded once), frames written
 * in the same turn of the event loop leave in one write (one HTTP chunk, one packet: every
 * network read of the provider that turn, not one write per read), and a slow client's
 * backpressure is awaited so it reaches the provider instead of piling up in memory.
 */
export class SseWriter {
  private started = false;
  private sentRole = false;
  /** Frames written this turn of the event loop, sent together once its I/O is done. */
  private pending = '';
  private scheduled = false;
  /** Set while the client is not keeping up; writers wait on it. */
  private blocked: Promise<void> | undefined;
  private readonly head: string;
  private readonly contentPrefix: string;
  private readonly contentPrefixWithRole: string;
  private readonly contentSuffix = '},"finish_reason":null}]}\n\n';

  constructor(
    private readonly res: ServerResponse,
    private readonly identity: ChunkIdentity,
  ) {
    this.head = `{"id":${JSON.stringify(identity.id)},"object":"chat.completion.chunk","created":${identity.created},"model":${JSON.stringify(identity.model)}`;
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
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
  }

  /** Queues a frame; frames queued in the same loop turn leave in one write. Resolves late only under backpressure. */
  private write(frame: string): void | Promise<void> {
    if (this.isClosed) return;
    if (!this.started) this.start();
    this.pending += frame;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
    return this.blocked;
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const data = this.pending;
    this.pending = '';
    if (!data || this.isClosed) return;
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

  /** A frame with extra fields and no text (sources, status, error, finish). */
  private extra(fields: Record<string, unknown>, choices: unknown[] = []): void | Promise<void> {
    const body = JSON.stringify({ choices, ...fields });
    return this.write(`data: ${this.head},${body.slice(1)}\n\n`);
  }

  /** A text fragment. */
  content(text: string): void | Promise<void> {
    const prefix = this.sentRole ? this.contentPrefix : this.contentPrefixWithRole;
    this.sentRole = true;
    return this.write(prefix + JSON.stringify(text) + this.contentSuffix);
  }

  /**
   * Text fragments given as JSON string literals (quotes included, safe to copy): each becomes
   * a content frame with the literal copied as it is, the same frame `content` writes for its text.
   */
  literals(literals: readonly string[]): void | Promise<void> {
    let frames = '';
    for (const literal of literals) {
      frames += (this.sentRole ? this.contentPrefix : this.contentPrefixWithRole) + literal + this.contentSuffix;
      this.sentRole = true;
    }
    return this.write(frames);
  }

  /** Writes one pipeline event. */
  event(event: PipelineEvent): void | Promise<void> {
    switch (event.type) {
      case 'content':
        return this.content(event.text);
      case 'literals':
        return this.literals(event.literals);
      case 'sources':
        return this.extra({ sources: event.sources });
      case 'memories':
        return this.extra({ memories: event.memories });
      case 'status':
        return this.status(event.status);
      case 'tool_step':
        return this.extra({ tool_step: event.step });
      default:
        return undefined;
    }
  }

  status(status: CompletionStatus): void | Promise<void> {
    return this.extra({ status });
  }

  /** The last frame: why the answer ended, usage when known, and where it was saved. */
  finish(reason: string | null, usage: CompletionUsage | undefined, saved: Record<string, string | undefined>): void | Promise<void> {
    return this.extra({ ...(usage ? { usage } : {}), ...saved }, [{ index: 0, delta: {}, finish_reason: reason }]);
  }

  /** An error the UI can show; the stream ends after it. */
  error(message: string, saved: Record<string, string | undefined>): void | Promise<void> {
    return this.extra({ error: { message, type: 'provider_error', code: 'PROVIDER_FAILED' }, ...saved }, [{ index: 0, delta: {}, finish_reason: 'error' }]);
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
