import { abortError, ProviderError, type ChatChunk, type ChatRequest, type Provider } from '../providers/provider';
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

    async *chatStream(request, signal): AsyncGenerator<ChatChunk> {
      // Chunks arrive by IPC faster than a slow client may read: queue them between yields.
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      let finished: { result?: RuntimeChatResult; error?: unknown } | undefined;
      const notify = () => {
        wake?.();
        wake = undefined;
      };
      void run(request, signal, (text) => {
        queue.push(text);
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
      for (;;) {
        while (queue.length > 0) yield { content: queue.shift()! };
        if (finished) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (finished.error !== undefined) throw finished.error;
      const result = finished.result!;
      if (result.toolCalls.length > 0) yield { tool_calls: result.toolCalls };
      yield { usage: result.usage };
      yield { finish_reason: result.finishReason };
    },

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
