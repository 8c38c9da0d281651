import type { ServerResponse } from 'node:http';
import type { CompletionSource, CompletionUsage } from '../contracts/completions';
import type { ToolCall } from '../providers';

/** Identity fields shared by every chunk of one completion. */
export interface StreamIdentity {
  id: string;
  created: number;
  model: string;
}

/**
 * Writes a /v1 answer as OpenAI `chat.completion.chunk` events: text, tool calls, the finish
 * chunk, the usage chunk when asked for, then `data: [DONE]`. Only OpenAI's fields, plus
 * `sources` on the first chunk when the model's knowledge was used. A slow client's
 * backpressure is awaited so it reaches the provider.
 */
export class OpenAiStream {
  private started = false;
  private sentRole = false;

  /** The fixed start of a text chunk, up to its delta's fields, in `JSON.stringify`'s order. */
  private readonly textHead: string;

  constructor(
    private readonly res: ServerResponse,
    private readonly identity: StreamIdentity,
  ) {
    this.textHead = `data: {"id":${JSON.stringify(identity.id)},"object":"chat.completion.chunk","created":${JSON.stringify(identity.created)},"model":${JSON.stringify(identity.model)},"choices":[{"index":0,"delta":{`;
  }

  /** True once headers went out (errors can no longer be HTTP statuses). */
  get hasStarted(): boolean {
    return this.started;
  }

  /** True when the client is gone. */
  get isClosed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  private async write(fields: Record<string, unknown>): Promise<void> {
    if (this.isClosed) return;
    const frame = { id: this.identity.id, object: 'chat.completion.chunk', created: this.identity.created, model: this.identity.model, ...fields };
    await this.send(`data: ${JSON.stringify(frame)}\n\n`);
  }

  /** Writes frames (headers first); resolves once a slow client drained them, else returns nothing. */
  private send(frames: string): Promise<void> | undefined {
    if (!this.started) {
      this.started = true;
      this.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    }
    if (this.res.write(frames)) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  private delta(delta: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<void> {
    const withRole = this.sentRole ? delta : { role: 'assistant', ...delta };
    this.sentRole = true;
    return this.write({ choices: [{ index: 0, delta: withRole, finish_reason: null }], ...extra });
  }

  /** The first chunk, carrying the sources the model's knowledge contributed (extension field). */
  sources(sources: CompletionSource[]): Promise<void> {
    return this.delta({ content: '' }, { sources });
  }

  /** A text fragment. */
  content(text: string): Promise<void> {
    return this.delta({ content: text });
  }

  /**
   * Text fragments as JSON string literals (quotes included, safe to copy): one chunk each, the
   * literal copied as it is into the chunk `content` writes for its text, all in one write.
   */
  literals(literals: readonly string[]): Promise<void> | undefined {
    if (this.isClosed) return undefined;
    let frames = '';
    for (const literal of literals) {
      frames += `${this.textHead}${this.sentRole ? '' : '"role":"assistant",'}"content":${literal}},"finish_reason":null}]}\n\n`;
      this.sentRole = true;
    }
    return this.send(frames);
  }

  /** Calls of the caller's own functions. */
  toolCalls(calls: ToolCall[]): Promise<void> {
    return this.delta({ tool_calls: calls.map((call, index) => ({ index, id: call.id, type: 'function', function: call.function })) });
  }

  /** The finish chunk, then the usage chunk (empty `choices`) when the caller asked for it. */
  async finish(reason: string | null, usage: CompletionUsage | undefined): Promise<void> {
    if (!this.sentRole) await this.delta({ content: '' });
    await this.write({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });
    if (usage) await this.write({ choices: [], usage });
  }

  /** A failure after the stream began: OpenAI clients raise it as an API error. */
  error(message: string): Promise<void> {
    return this.write({ choices: [], error: { message, type: 'api_error', code: 'provider_failed' } });
  }

  /** `data: [DONE]` and the end of the response. */
  end(): void {
    if (this.isClosed) return;
    this.res.end('data: [DONE]\n\n');
  }
}
