import { describe, expect, it } from 'vitest';
import { chatStreamBatches, type ChatChunk } from '../providers';
import { createBuiltinProvider } from './builtin-provider';
import type { ModelLibrary } from './model-library';
import type { RuntimeChatResult } from './runtime/protocol';
import { RuntimeFailure, type RuntimeHost } from './runtime/runtime-host';

const model = { id: 'tiny', path: '/models/tiny.gguf', ramEstimate: 1 };
const library = { runtimeModel: async (id: string) => (id === 'tiny' ? model : undefined) } as unknown as ModelLibrary;
const result: RuntimeChatResult = { content: 'Hello, world', toolCalls: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 }, finishReason: 'stop' };

/** A runtime whose chat sends the given pieces of text, each in an event-loop turn of its own, then ends with `end`. */
function runtimeSending(pieces: string[], end: () => RuntimeChatResult): RuntimeHost {
  return {
    async chat(_input: unknown, _signal: AbortSignal | undefined, onChunk: (text: string) => void) {
      for (const piece of pieces) {
        await new Promise((resolve) => setImmediate(resolve));
        onChunk(piece);
      }
      return end();
    },
  } as unknown as RuntimeHost;
}

async function batchesOf(runtime: RuntimeHost): Promise<ChatChunk[][]> {
  const provider = createBuiltinProvider({ library, runtime });
  const batches: ChatChunk[][] = [];
  for await (const batch of chatStreamBatches(provider, { model: 'tiny', messages: [{ role: 'user', content: 'hi' }] })) batches.push(batch);
  return batches;
}

describe('built-in provider streaming', () => {
  it('hands over every piece of text in order, and ends with usage and the finish reason', async () => {
    const batches = await batchesOf(runtimeSending(['Hel', 'lo, ', 'world'], () => result));
    const chunks = batches.flat();
    expect(chunks.map((c) => c.content ?? '').join('')).toBe('Hello, world');
    expect(chunks.at(-2)).toEqual({ usage: result.usage });
    expect(chunks.at(-1)).toEqual({ finish_reason: 'stop' });
  });

  it('gives text that arrived while the pipeline was busy as one batch', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runtime = {
      async chat(_input: unknown, _signal: AbortSignal | undefined, onChunk: (text: string) => void) {
        onChunk('a');
        await held;
        onChunk('b');
        onChunk('c');
        return result;
      },
    } as unknown as RuntimeHost;
    const provider = createBuiltinProvider({ library, runtime });
    const batches: ChatChunk[][] = [];
    for await (const batch of chatStreamBatches(provider, { model: 'tiny', messages: [{ role: 'user', content: 'hi' }] })) {
      batches.push(batch);
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(batches[0]).toEqual([{ content: 'a' }]);
    // 'b', 'c' and the end arrived while the first batch was being written: one step for all.
    expect(batches[1]).toEqual([{ content: 'b' }, { content: 'c' }, { usage: result.usage }, { finish_reason: 'stop' }]);
    expect(batches).toHaveLength(2);
  });

  it('keeps the text that came before a failure, then fails with the runtime reason', async () => {
    const provider = createBuiltinProvider({
      library,
      runtime: runtimeSending(['partial '], () => {
        throw new RuntimeFailure('crashed', 'The model runtime stopped: GGML_ASSERT');
      }),
    });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of provider.chatStream({ model: 'tiny', messages: [{ role: 'user', content: 'hi' }] })) seen.push(chunk.content ?? '');
    })();
    await expect(reading).rejects.toThrow(/GGML_ASSERT/);
    expect(seen.join('')).toBe('partial ');
  });
});
