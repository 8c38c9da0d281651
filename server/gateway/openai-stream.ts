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

  constructor(
    private readonly res: ServerResponse,
    private readonly identity: StreamIdentity,
  ) {}

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
    if (!this.started) {
      this.started = true;
      this.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    }
    const frame = { id: this.identity.id, object: 'chat.completion.chunk', created: this.identity.created, model: this.identity.model, ...fields };
    if (this.res.write(`data: ${JSON.stringify(frame)}\n\n`)) return;
    await new Promise<void>((resolve) => {
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
