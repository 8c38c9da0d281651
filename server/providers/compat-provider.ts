import type OpenAI from 'openai';
import type * as OpenAIModule from 'openai';
import type { Readable } from 'node:stream';
import { abortError, ProviderError, singles, type ChatChunk, type ChatRequest, type ChatResult, type Provider, type ProviderModel, type ToolCall } from './provider';
import { loadExports } from '../platform/library-exports';
import { offlineRefusal, outboundFetch } from '../platform/net/outbound';
import { createStreamAgent, upstreamBatches } from './http-stream';
import { DONE, sseFrameBatches, upstreamErrorMessage } from './sse-chunks';
import { createToolCallAccumulator } from './tool-calls';

/** Where and how to reach one OpenAI-compatible provider. */
export interface CompatProviderOptions {
  url: string;
  /** Bearer key; empty or undefined sends no Authorization header. */
  key?: string;
}

type OpenAIMessages = OpenAI.Chat.ChatCompletionMessageParam[];
type OpenAITools = OpenAI.Chat.ChatCompletionTool[];

/** The request fields shared by streamed and whole answers; undefined options are left out. */
function requestBody(request: ChatRequest) {
  return {
    model: request.model,
    messages: request.messages as unknown as OpenAIMessages,
    ...(request.tools && request.tools.length > 0 ? { tools: request.tools as unknown as OpenAITools } : {}),
    ...(request.tools && request.tools.length > 0 && request.tool_choice !== undefined ? { tool_choice: request.tool_choice } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.max_tokens !== undefined ? { max_tokens: request.max_tokens } : {}),
    ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.stop !== undefined ? { stop: request.stop } : {}),
  };
}

type OpenAISdk = Pick<typeof OpenAIModule, 'default' | 'APIConnectionError' | 'APIError' | 'APIUserAbortError'>;
// The openai client is loaded at the first call to a provider, not at start-up.
let sdkModule: Promise<OpenAISdk> | undefined;
const loadSdk = () => (sdkModule ??= loadExports(import('openai'), 'openai', 'default', 'APIConnectionError', 'APIError', 'APIUserAbortError'));

/** Turns an openai client error into an abort or a ProviderError. */
function translate(sdk: OpenAISdk, error: unknown, signal: AbortSignal | undefined): Error {
  const { APIConnectionError, APIError, APIUserAbortError } = sdk;
  if (signal?.aborted || error instanceof APIUserAbortError) return abortError();
  const refused = offlineRefusal(error);
  if (refused) return refused;
  if (error instanceof APIConnectionError) return new ProviderError('compat', `Could not reach the provider: ${error.message}`, undefined, { cause: error });
  if (error instanceof APIError) return new ProviderError('compat', error.message, error.status);
  if (error instanceof Error) return new ProviderError('compat', error.message);
  return new ProviderError('compat', 'The provider failed');
}

function functionCalls(calls: ReadonlyArray<{ type: string; id: string; function?: { name: string; arguments: string } }> | undefined): ToolCall[] {
  return (calls ?? [])
    .filter((call) => call.type === 'function' && call.function)
    .map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.function!.name, arguments: call.function!.arguments } }));
}

/** An OpenAI-compatible provider (`{base}/models`, `/chat/completions`, `/embeddings`) through the official client. */
export function createCompatProvider(options: CompatProviderOptions): Provider {
  const key = options.key ?? '';
  let ready: Promise<{ sdk: OpenAISdk; client: OpenAI }> | undefined;
  const connect = () =>
    (ready ??= loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.default({
        apiKey: key || 'no-key',
        baseURL: options.url,
        organization: null,
        project: null,
        maxRetries: 0,
        timeout: 10 * 60_000,
        // Every call asks the outbound guard first (offline mode).
        fetch: outboundFetch('provider'),
        ...(key ? {} : { defaultHeaders: { Authorization: null } }),
      }),
    })));

  const chatUrl = new URL(`${options.url.replace(/\/+$/, '')}/chat/completions`);
  const authHeader: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const agent = createStreamAgent();

  /**
   * The SSE body as pieces, one batch per read: text frames as the provider's JSON string
   * literals, tool call deltas assembled into whole calls.
   */
  async function* readAnswer(body: Readable): AsyncGenerator<ChatChunk[]> {
    const toolCalls = createToolCallAccumulator();
    let finished = false;
    for await (const frames of sseFrameBatches(body)) {
      if (finished) continue;
      const out: ChatChunk[] = [];
      // Consecutive text frames of the read travel as one piece of literals.
      let literals: string[] | undefined;
      for (const chunk of frames) {
        if (finished) break;
        if (typeof chunk === 'string') {
          if (chunk.length <= 2) continue; // ""
          if (literals) literals.push(chunk);
          else out.push({ literals: (literals = [chunk]) });
          continue;
        }
        literals = undefined;
        if (chunk === DONE) {
          finished = true;
          continue;
        }
        if (chunk.usage) out.push({ usage: pickUsage(chunk.usage) });
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.delta?.content) out.push({ content: choice.delta.content });
        if (choice.delta?.tool_calls) toolCalls.add(choice.delta.tool_calls);
        if (choice.finish_reason) {
          const calls = toolCalls.take();
          if (calls.length > 0) out.push({ tool_calls: calls });
          out.push({ finish_reason: choice.finish_reason });
        }
      }
      if (out.length > 0) yield out;
    }
    const rest = toolCalls.take();
    if (rest.length > 0) yield [{ tool_calls: rest }];
  }

  // The hot path goes over undici with the SSE body parsed here: the client's fetch and stream
  // machinery cost more per token than the provider's framing (see http-stream.ts).
  const streamBatches = (request: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatChunk[]> =>
    upstreamBatches(
      {
        kind: 'compat',
        url: chatUrl,
        headers: authHeader,
        body: { ...requestBody(request), stream: true, stream_options: { include_usage: true } },
        agent,
        errorMessage: upstreamErrorMessage,
        read: readAnswer,
      },
      signal,
    );

  return {
    kind: 'compat',
    url: options.url,

    async listModels(signal) {
      const { sdk, client } = await connect();
      try {
        const page = await client.models.list({ signal });
        return page.data
          .filter((m) => typeof m?.id === 'string')
          .map((m): ProviderModel => ({ id: m.id, name: m.id, ...(typeof m.created === 'number' ? { created: m.created } : {}) }));
      } catch (error) {
        throw translate(sdk, error, signal);
      }
    },

    async chat(request, signal): Promise<ChatResult> {
      const { sdk, client } = await connect();
      try {
        const completion = await client.chat.completions.create({ ...requestBody(request), stream: false }, { signal });
        const choice = completion.choices[0];
        return {
          content: choice?.message.content ?? '',
          tool_calls: functionCalls(choice?.message.tool_calls as Parameters<typeof functionCalls>[0]),
          ...(completion.usage ? { usage: pickUsage(completion.usage) } : {}),
          finish_reason: choice?.finish_reason ?? null,
        };
      } catch (error) {
        throw translate(sdk, error, signal);
      }
    },

    chatStream: (request, signal) => singles(streamBatches(request, signal)),
    chatStreamBatches: streamBatches,

    async embed(model, inputs, signal) {
      if (inputs.length === 0) return [];
      const { sdk, client } = await connect();
      try {
        const response = await client.embeddings.create({ model, input: inputs, encoding_format: 'float' }, { signal });
        const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
        if (vectors.length !== inputs.length) throw new ProviderError('compat', `Expected ${inputs.length} embeddings, got ${vectors.length}`);
        return vectors;
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        throw translate(sdk, error, signal);
      }
    },
  };
}

function pickUsage(usage: { prompt_tokens: number; completion_tokens?: number; total_tokens: number }) {
  return { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens ?? 0, total_tokens: usage.total_tokens };
}
