import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompatProvider, createLocalProvider, DeadlineError, isAbortError, ProviderError, withDeadline, type ChatChunk, type Provider } from '../../server/providers';
import { fakeEmbedding, startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';

async function collect(stream: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const chunks: ChatChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}
const textOf = (chunks: ChatChunk[]) => chunks.map((c) => c.content ?? '').join('');

describe('provider clients against real fake peers', () => {
  let openai: FakeOpenAI;
  let ollama: FakeOllama;
  let compat: Provider;
  let local: Provider;

  beforeAll(async () => {
    openai = await startFakeOpenAI({ key: 'sk-compat-key', models: ['gpt-fake', 'embed-fake'] });
    ollama = await startFakeOllama({ key: 'ollama-key', models: ['llama-fake:latest', 'embed-fake:latest'] });
    compat = createCompatProvider({ url: openai.url, key: 'sk-compat-key' });
    local = createLocalProvider({ url: ollama.url, key: 'ollama-key' });
  });
  afterAll(async () => {
    await openai.close();
    await ollama.close();
  });
  beforeEach(() => {
    openai.reset();
    ollama.reset();
  });

  describe.each([
    ['compat', () => compat, 'gpt-fake', 'embed-fake'],
    ['local', () => local, 'llama-fake:latest', 'embed-fake:latest'],
  ] as const)('%s provider', (_kind, provider, chatModel, embedModel) => {
    it('lists the provider models', async () => {
      const models = await provider().listModels();
      expect(models.map((m) => m.id)).toEqual([chatModel, embedModel]);
    });

    it('streams text in pieces with usage and a stop reason', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      fake.reply({ text: 'Hello there, friend', chunks: 3, usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
      const chunks = await collect(provider().chatStream({ model: chatModel, messages: [{ role: 'user', content: 'hi' }] }));
      expect(chunks.filter((c) => c.content).length).toBe(3);
      expect(textOf(chunks)).toBe('Hello there, friend');
      expect(chunks.find((c) => c.usage)?.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
      expect(chunks.find((c) => c.finish_reason)?.finish_reason).toBe('stop');
    });

    it('answers a whole completion without streaming', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      fake.reply({ text: 'All at once' });
      const result = await provider().chat({ model: chatModel, messages: [{ role: 'user', content: 'hi' }], temperature: 0.2, max_tokens: 50 });
      expect(result.content).toBe('All at once');
      expect(result.finish_reason).toBe('stop');
      expect(result.tool_calls).toEqual([]);
      const sent = fake.lastChat()!.body;
      if (_kind === 'compat') {
        expect(sent).toMatchObject({ temperature: 0.2, max_tokens: 50, stream: false });
      } else {
        expect(sent).toMatchObject({ options: { temperature: 0.2, num_predict: 50 }, stream: false });
      }
    });

    it('passes tools and returns tool calls with JSON-string arguments, streamed or not', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      const tools = [{ type: 'function' as const, function: { name: 'add', description: 'Adds', parameters: { type: 'object', properties: { a: { type: 'number' } } } } }];
      fake.reply({ text: '', tool_calls: [{ name: 'add', arguments: { a: 1, b: 2 } }, { name: 'echo', arguments: { text: 'x' } }] });

      const chunks = await collect(provider().chatStream({ model: chatModel, messages: [{ role: 'user', content: 'add' }], tools }));
      const calls = chunks.flatMap((c) => c.tool_calls ?? []);
      expect(calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
        ['add', { a: 1, b: 2 }],
        ['echo', { text: 'x' }],
      ]);
      expect(calls.every((c) => c.type === 'function' && c.id.length > 0)).toBe(true);
      expect(chunks.find((c) => c.finish_reason)?.finish_reason).toBe('tool_calls');
      expect(fake.lastChat()!.body.tools[0].function.name).toBe('add');

      const whole = await provider().chat({ model: chatModel, messages: [{ role: 'user', content: 'add' }], tools });
      expect(whole.tool_calls.map((c) => JSON.parse(c.function.arguments))).toEqual([{ a: 1, b: 2 }, { text: 'x' }]);
      expect(whole.finish_reason).toBe('tool_calls');
    });

    it('sends earlier tool calls and tool results back in the provider format', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      await provider().chat({
        model: chatModel,
        messages: [
          { role: 'user', content: 'add 1 and 2' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] },
          { role: 'tool', content: '3', tool_call_id: 'call_1', name: 'add' },
        ],
      });
      const messages = fake.lastChat()!.body.messages;
      if (_kind === 'compat') {
        expect(messages[1].tool_calls[0].function.arguments).toBe('{"a":1,"b":2}');
        expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: '3' });
      } else {
        expect(messages[1].tool_calls[0].function.arguments).toEqual({ a: 1, b: 2 });
        expect(messages[2]).toMatchObject({ role: 'tool', tool_name: 'add', content: '3' });
      }
    });

    it('embeds texts deterministically, in order', async () => {
      const vectors = await provider().embed(embedModel, ['red apples', 'green pears']);
      expect(vectors).toHaveLength(2);
      expect(vectors[0]![0]).toBeCloseTo(fakeEmbedding('red apples')[0]!, 5);
      expect(vectors[1]!.map((v) => Number(v.toFixed(5)))).toEqual(fakeEmbedding('green pears').map((v) => Number(v.toFixed(5))));
    });

    it('stops the upstream stream when aborted, and the provider sees the disconnect', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      fake.reply({ text: 'one two three four five six seven eight', delayMs: 100 });
      const controller = new AbortController();
      const seen: string[] = [];
      const run = (async () => {
        for await (const chunk of provider().chatStream({ model: chatModel, messages: [{ role: 'user', content: 'go' }] }, controller.signal)) {
          if (chunk.content) seen.push(chunk.content);
          if (seen.length === 2) controller.abort();
        }
      })();
      await expect(run).rejects.toSatisfy(isAbortError);
      await fake.waitForAbort(3000);
      expect(seen.length).toBe(2);
    });

    it('reports an error in the middle of a stream as a provider error', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      fake.reply({ text: 'a b c d', failAfter: 2, error: 'overloaded' });
      await expect(collect(provider().chatStream({ model: chatModel, messages: [{ role: 'user', content: 'go' }] }))).rejects.toThrow(/overloaded/);
    });

    it('cuts a provider that never answers when the deadline passes, and the provider sees the disconnect', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      fake.reply({ hang: true });
      const started = Date.now();
      await expect(withDeadline(300, (signal) => provider().chat({ model: chatModel, messages: [{ role: 'user', content: 'x' }] }, signal))).rejects.toBeInstanceOf(DeadlineError);
      expect(Date.now() - started).toBeLessThan(2_000);
      await fake.waitForAbort(3000);
    });

    it('cuts a stream that stalls midway, keeping the pieces that arrived', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      fake.reply({ text: 'first second third', hangAfter: 1 });
      const seen: string[] = [];
      await expect(
        withDeadline(500, async (signal) => {
          for await (const chunk of provider().chatStream({ model: chatModel, messages: [{ role: 'user', content: 'x' }] }, signal)) {
            if (chunk.content) seen.push(chunk.content);
          }
        }),
      ).rejects.toBeInstanceOf(DeadlineError);
      expect(seen).toEqual(['first ']);
      await fake.waitForAbort(3000);
    });

    it('delivers slow tokens one by one as they come', async () => {
      const fake = _kind === 'compat' ? openai : ollama;
      fake.reply({ pieces: ['a', 'b', 'c'], delayMs: 150 });
      const arrivals: number[] = [];
      const started = Date.now();
      for await (const chunk of provider().chatStream({ model: chatModel, messages: [{ role: 'user', content: 'x' }] })) {
        if (chunk.content) arrivals.push(Date.now() - started);
      }
      expect(arrivals).toHaveLength(3);
      expect(arrivals[2]! - arrivals[0]!).toBeGreaterThanOrEqual(250);
    });

    it('reports an unknown model with the upstream 404', async () => {
      const error = await provider().chat({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).status).toBe(404);
    });
  });

  it('sends the key as a Bearer token, and none when no key is set', async () => {
    await compat.listModels();
    expect(openai.requestsTo('/models')[0]!.headers.authorization).toBe('Bearer sk-compat-key');
    openai.key = null;
    try {
      await createCompatProvider({ url: openai.url }).listModels();
      expect(openai.requestsTo('/models')[1]!.headers.authorization).toBeUndefined();
    } finally {
      openai.key = 'sk-compat-key';
    }
    await local.listModels();
    expect(ollama.requestsTo('/api/tags')[0]!.headers.authorization).toBe('Bearer ollama-key');
  });

  it('fails with status 401 when the key is wrong', async () => {
    const error = await createCompatProvider({ url: openai.url, key: 'sk-wrong' }).listModels().catch((e: unknown) => e);
    expect((error as ProviderError).status).toBe(401);
    const localError = await createLocalProvider({ url: ollama.url, key: 'wrong' }).listModels().catch((e: unknown) => e);
    expect((localError as ProviderError).status).toBe(401);
  });

  it('fails with a provider error when nothing listens at the URL', async () => {
    const closed = await startFakeOpenAI();
    const url = closed.url;
    await closed.close();
    await expect(createCompatProvider({ url }).listModels()).rejects.toBeInstanceOf(ProviderError);
    await expect(createLocalProvider({ url: url.replace('/v1', '') }).listModels()).rejects.toBeInstanceOf(ProviderError);
  });
});
