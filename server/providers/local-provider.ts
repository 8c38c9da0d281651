import type * as OllamaModule from 'ollama';
import type { ChatRequest as OllamaChatRequest, Message as OllamaMessage, Options as OllamaOptions } from 'ollama';
import type { Readable } from 'node:stream';
import { abortError, ProviderError, singles, type ChatChunk, type ChatMessage, type ChatRequest, type ChatResult, type Provider, type Usage } from './provider';
import { offlineRefusal, outboundFetch } from '../platform/net/outbound';
import { createStreamAgent, lineBatches, upstreamBatches } from './http-stream';
import { loadExports } from '../platform/library-exports';
import { createTextLineReader } from './ndjson-lines';
import { fromOllamaToolCalls, toOllamaToolCalls, type OllamaToolCall } from './tool-calls';

// The ollama client is loaded at the first call to a provider, not at start-up.
let ollamaModule: Promise<Pick<typeof OllamaModule, 'Ollama'>> | undefined;
const loadOllama = () => (ollamaModule ??= loadExports(import('ollama'), 'ollama', 'Ollama'));

/** Where and how to reach one Ollama-style provider. */
export interface LocalProviderOptions {
  url: string;
  /** Bearer key for Ollama behind an authenticating proxy; empty sends none. */
  key?: string;
}

/** Text and base64 images of an OpenAI-form message content. */
function splitContent(content: ChatMessage['content']): { text: string; images: string[] } {
  if (content === null) return { text: '', images: [] };
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'image_url') {
      // Ollama takes raw base64; only data: URLs can be passed on without fetching.
      const match = /^data:[^;,]+;base64,(.*)$/s.exec(part.image_url.url);
      if (match?.[1]) images.push(match[1]);
    }
  }
  return { text: texts.join('\n'), images };
}

/** Converts OpenAI-form messages to Ollama's. */
export function toOllamaMessages(messages: readonly ChatMessage[]): OllamaMessage[] {
  return messages.map((message) => {
    const { text, images } = splitContent(message.content);
    const out: OllamaMessage = { role: message.role, content: text };
    if (images.length > 0) out.images = images;
    if (message.tool_calls && message.tool_calls.length > 0) out.tool_calls = toOllamaToolCalls(message.tool_calls);
    if (message.role === 'tool' && message.name) out.tool_name = message.name;
    return out;
  });
}

function options(request: ChatRequest): Partial<OllamaOptions> | undefined {
  const opts: Partial<OllamaOptions> = {};
  if (request.temperature !== undefined) opts.temperature = request.temperature;
  if (request.max_tokens !== undefined) opts.num_predict = request.max_tokens;
  if (request.top_p !== undefined) opts.top_p = request.top_p;
  if (request.seed !== undefined) opts.seed = request.seed;
  if (request.stop !== undefined) opts.stop = Array.isArray(request.stop) ? request.stop : [request.stop];
  return Object.keys(opts).length > 0 ? opts : undefined;
}

function usageOf(response: { prompt_eval_count?: number; eval_count?: number }): Usage {
  const prompt = response.prompt_eval_count ?? 0;
  const completion = response.eval_count ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** One line of Ollama's streamed `/api/chat` answer (the fields we read). */
interface OllamaStreamPart {
  message?: { content?: string; tool_calls?: OllamaToolCall[] };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: unknown;
}

/** The base URL as the ollama client reads a host: `http://` and port 11434 when none is given. */
function ollamaHost(host: string): string {
  const explicit = host.includes('://');
  const url = new URL(explicit ? host : `http://${host}`);
  if (!explicit && !url.port) url.port = '11434';
  return url.toString().replace(/\/+$/, '');
}

/** The message of an Ollama error body (`{"error": "…"}`), as the ollama client reads it. */
function ollamaErrorMessage(text: string, status: number): string {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof error === 'string' && error) return error;
  } catch {
    // not JSON
  }
  return text.trim() || `HTTP ${status}`;
}

function translate(error: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted || (error as { name?: string })?.name === 'AbortError') return abortError();
  const refused = offlineRefusal(error);
  if (refused) return refused;
  const e = error as { status_code?: number; message?: string; cause?: { code?: string } };
  if (typeof e?.status_code === 'number') return new ProviderError('local', e.message ?? 'The provider failed', e.status_code);
  if (error instanceof TypeError) return new ProviderError('local', `Could not reach the provider: ${e.cause?.code ?? error.message}`, undefined, { cause: error });
  return new ProviderError('local', e?.message ?? 'The provider failed');
}

/** Every call of the ollama client asks the outbound guard first. */
const guardedFetch = outboundFetch('provider');

/** An Ollama-style provider (`{base}/api/tags`, `/api/chat`, `/api/embed`) through the official client. */
export function createLocalProvider(config: LocalProviderOptions): Provider {
  const headers = config.key ? { Authorization: `Bearer ${config.key}` } : undefined;
  /** The ollama client takes no signal on most calls: a per-call client whose fetch carries ours. */
  const clientFor = async (signal: AbortSignal | undefined) =>
    new (await loadOllama()).Ollama({
      host: config.url,
      headers,
      fetch: (input: string | URL | Request, init?: RequestInit) => {
        const signals = [init?.signal, signal].filter((s): s is AbortSignal => s instanceof AbortSignal);
        return guardedFetch(input, { ...init, signal: signals.length > 0 ? AbortSignal.any(signals) : undefined });
      },
    });

  const chatUrl = new URL(`${ollamaHost(config.url)}/api/chat`);
  const authHeader: Record<string, string> = config.key ? { authorization: `Bearer ${config.key}` } : {};
  const agent = createStreamAgent();

  const chatBody = (request: ChatRequest) => ({
    model: request.model,
    messages: toOllamaMessages(request.messages),
    ...(request.tools && request.tools.length > 0 ? { tools: request.tools as OllamaChatRequest['tools'] } : {}),
    ...(options(request) ? { options: options(request) } : {}),
  });

  /** The NDJSON body as pieces, one batch per read: text lines as their content's JSON string literal (see `createTextLineReader`). */
  async function* readAnswer(body: Readable): AsyncGenerator<ChatChunk[]> {
    let calls = 0;
    const textLines = createTextLineReader();
    for await (const lines of lineBatches(body)) {
      const out: ChatChunk[] = [];
      // Consecutive text lines of the read travel as one piece of literals.
      let literals: string[] | undefined;
      try {
        for (const line of lines) {
          const literal = textLines.read(line);
          if (literal !== undefined) {
            if (literal.length <= 2) continue; // ""
            if (literals) literals.push(literal);
            else out.push({ literals: (literals = [literal]) });
            continue;
          }
          literals = undefined;
          if (!line.trim()) continue;
          const part = JSON.parse(line) as OllamaStreamPart;
          if (part.error) throw new ProviderError('local', typeof part.error === 'string' ? part.error : JSON.stringify(part.error));
          const plainText = !part.done && !part.message?.tool_calls?.length && Object.keys(part.message ?? {}).every((key) => key === 'role' || key === 'content');
          textLines.learn(line, plainText ? part.message?.content : undefined);
          if (part.message?.content) out.push({ content: part.message.content });
          if (part.message?.tool_calls && part.message.tool_calls.length > 0) {
            const converted = fromOllamaToolCalls(part.message.tool_calls, calls);
            calls += converted.length;
            out.push({ tool_calls: converted });
          }
          if (part.done) {
            out.push({ usage: usageOf(part) });
            out.push({ finish_reason: calls > 0 ? 'tool_calls' : part.done_reason || 'stop' });
          }
        }
      } catch (error) {
        // The pieces before a bad line still count.
        if (out.length > 0) yield out;
        throw error;
      }
      if (out.length > 0) yield out;
    }
  }

  // The hot path goes over undici with the NDJSON body parsed here (see http-stream.ts).
  const streamBatches = (request: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatChunk[]> =>
    upstreamBatches({ kind: 'local', url: chatUrl, headers: authHeader, body: { ...chatBody(request), stream: true }, agent, errorMessage: (status, text) => ollamaErrorMessage(text, status), read: readAnswer }, signal);

  return {
    kind: 'local',
    url: config.url,

    async listModels(signal) {
      try {
        const response = await (await clientFor(signal)).list();
        return (response.models ?? [])
          .filter((m) => typeof m?.name === 'string' || typeof m?.model === 'string')
          .map((m) => {
            const id = m.model || m.name;
            const modified = m.modified_at ? Math.floor(new Date(m.modified_at).getTime() / 1000) : NaN;
            return { id, name: m.name || id, ...(Number.isFinite(modified) ? { created: modified } : {}) };
          });
      } catch (error) {
        throw translate(error, signal);
      }
    },

    async chat(request, signal): Promise<ChatResult> {
      try {
        const response = await (await clientFor(signal)).chat({ ...chatBody(request), stream: false });
        const toolCalls = fromOllamaToolCalls((response.message.tool_calls ?? []) as OllamaToolCall[]);
        return {
          content: response.message.content ?? '',
          tool_calls: toolCalls,
          usage: usageOf(response),
          finish_reason: toolCalls.length > 0 ? 'tool_calls' : (response.done_reason ?? 'stop'),
        };
      } catch (error) {
        throw translate(error, signal);
      }
    },

    chatStream: (request, signal) => singles(streamBatches(request, signal)),
    chatStreamBatches: streamBatches,

    async embed(model, inputs, signal) {
      if (inputs.length === 0) return [];
      try {
        const response = await (await clientFor(signal)).embed({ model, input: inputs });
        if (response.embeddings.length !== inputs.length) {
          throw new ProviderError('local', `Expected ${inputs.length} embeddings, got ${response.embeddings.length}`);
        }
        return response.embeddings;
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        throw translate(error, signal);
      }
    },
  };
}
