import { abortError, ProviderError, type ChatChunk, type ChatRequest, type Provider } from '../providers';
import type { ModelLibrary } from './model-library';
import type { RuntimeChatOptions, RuntimeChatResult } from './runtime/protocol';
import { RuntimeFailure, type RuntimeHost } from './runtime/runtime-host';

/** The built-in provider's URL, shown where providers are listed. */
export const BUILTIN_URL = 'builtin://local';

function options(request: ChatRequest): RuntimeChatOptions {
  return {
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.max_tokens !== undefined ? { maxTokens: request.max_tokens } : {}),
    ...(request.top_p !== undefined ? { topP: request.top_p } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.stop !== undefined ? { stop: Array.isArray(request.stop) ? request.stop : [request.stop] } : {}),
  };
}

/** Runtime failures as provider errors; 400 with "tool" in the message sends the pipeline to prompt-based tool calling. */
function translate(error: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted || (error instanceof RuntimeFailure && error.code === 'aborted')) return abortError();
  if (error instanceof RuntimeFailure) {
    if (error.code === 'tools') return new ProviderError('builtin', `The model refused the tools: ${error.message}`, 400);
    if (error.code === 'bad-request') return new ProviderError('builtin', error.message, 400);
    return new ProviderError('builtin', error.message, 500);
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function* flatten<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/**
 * The `builtin` provider: the library's ready models, answered by the runtime process.
 * Its model ids are the library entries' ids.
 */
export function createBuiltinProvider(deps: { library: ModelLibrary; runtime: RuntimeHost }): Provider {
  const { library, runtime } = deps;

  async function modelFor(id: string) {
    const model = await library.runtimeModel(id);
    if (!model) throw new ProviderError('builtin', `The built-in model '${id}' is not in the library (or not downloaded yet)`, 404);
    return model;
  }

  /** Runs one chat, pushing text chunks into `push`; resolves with the end of the answer. */
  async function run(request: ChatRequest, signal: AbortSignal | undefined, push: (text: string) => void): Promise<RuntimeChatResult> {
    const model = await modelFor(request.model);
    try {
      return await runtime.chat({ model, messages: request.messages, ...(request.tools?.length ? { tools: request.tools } : {}), options: options(request) }, signal, push);
    } catch (error) {
      throw translate(error, signal);
    }
  }

  /**
   * One batch per wake-up: every piece of text that arrived from the runtime since the
   * pipeline last took some (one IPC read can hold several), and at the end the last text with
   * the tool calls, usage and finish reason together, so the end of an answer is one step.
   */
  async function* streamBatches(request: ChatRequest, signal: AbortSignal | undefined): AsyncGenerator<ChatChunk[]> {
    // Chunks arrive by IPC faster than a slow client may read: queue them between yields.
    let queue: ChatChunk[] = [];
    let wake: (() => void) | undefined;
    let finished: { result?: RuntimeChatResult; error?: unknown } | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    void run(request, signal, (text) => {
      queue.push({ content: text });
      notify();
    }).then(
      (result) => {
        finished = { result };
        notify();
      },
      (error: unknown) => {
        finished = { error };
        notify();
      },
    );
    while (!finished) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const batch = queue;
      queue = [];
      yield batch;
    }
    const done: { result?: RuntimeChatResult; error?: unknown } = finished;
    if (done.error !== undefined) {
      if (queue.length > 0) yield queue;
      throw done.error;
    }
    const result = done.result!;
    yield [...queue, ...(result.toolCalls.length > 0 ? [{ tool_calls: result.toolCalls }] : []), { usage: result.usage }, { finish_reason: result.finishReason }];
  }

  return {
    kind: 'builtin',
    url: BUILTIN_URL,

    async listModels() {
      return (await library.ready('chat')).map((m) => ({ id: m.id, name: m.name, created: m.created_at }));
    },

    async chat(request, signal) {
      const result = await run(request, signal, () => undefined);
      return { content: result.content, tool_calls: result.toolCalls, usage: result.usage, finish_reason: result.finishReason };
    },

    chatStream: (request, signal) => flatten(streamBatches(request, signal)),

    chatStreamBatches: streamBatches,

    async embed(model, inputs, signal) {
      if (inputs.length === 0) return [];
      const runtimeModel = await modelFor(model);
      try {
        return await runtime.embed(runtimeModel, inputs, signal);
      } catch (error) {
        throw translate(error, signal);
      }
    },
  };
}
