import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompatProvider, createLocalProvider, type Provider } from '../providers';
import type { PreparedCompletion } from './pipeline-types';
import { ChunkWriter } from './chunk-writer';
import { answerStage } from './stages/provider';
import { EMPTY_TOOLS } from './stages/tools';

// The same provider stream answered twice: on the pass-through path (text frames' string
// literals copied into Parley's frames) and on the normal path (every piece decoded to text and
// encoded again). Clients must not see a difference.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A provider that writes `reads` (bytes) with pauses between them, so each is its own network read. */
async function fakeProvider(reads: Buffer[]): Promise<string> {
  const port = await listen(async (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const part of reads) {
      res.write(part);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    res.end();
  });
  return `http://127.0.0.1:${port}/v1`;
}

/** The provider without its batched stream: every piece reaches the pipeline decoded, one by one. */
function normalPath(provider: Provider): Provider {
  return { kind: provider.kind, url: provider.url, listModels: provider.listModels, chat: provider.chat, chatStream: provider.chatStream, embed: provider.embed };
}

function prepared(provider: Provider): PreparedCompletion {
  return {
    id: 'chatcmpl-same',
    created: 1700000000,
    user: { id: 'u1', role: 'user' },
    request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } as PreparedCompletion['request'],
    resolved: { provider, providerModelId: 'm', params: {} } as unknown as PreparedCompletion['resolved'],
    messages: [{ role: 'user', content: 'hi' }],
    params: {},
    files: [],
    retrieval: { sources: [] },
    tools: EMPTY_TOOLS,
  };
}

/** Runs the answer stage into Parley's SSE writer; returns the bytes a client read and the saved answer. */
async function answer(provider: Provider): Promise<{ bytes: Buffer; content: string; finish: string | null }> {
  let outcome: Awaited<ReturnType<typeof answerStage>> | undefined;
  const port = await listen(async (_req, res) => {
    const sse = new ChunkWriter(res, { id: 'chatcmpl-same', created: 1700000000, model: 'm' }, 'parley');
    outcome = await answerStage(prepared(provider), new AbortController().signal, (event) => sse.event(event));
    await sse.finish(outcome.finishReason, outcome.usage, {});
    sse.end();
  });
  const bytes = Buffer.from(await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer());
  return { bytes, content: outcome!.content, finish: outcome!.finishReason };
}

async function bothPaths(reads: Buffer[], kind: 'compat' | 'local' = 'compat') {
  const create = kind === 'compat' ? (url: string) => createCompatProvider({ url }) : (url: string) => createLocalProvider({ url: url.replace(/\/v1$/, '') });
  const fast = await answer(create(await fakeProvider(reads)));
  const normal = await answer(normalPath(create(await fakeProvider(reads))));
  return { fast, normal };
}

/** The text frames' content of a client's SSE bytes, and every frame parsed. */
function framesOf(bytes: Buffer): unknown[] {
  return bytes
    .toString('utf8')
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: {'))
    .map((frame) => JSON.parse(frame.slice(6)) as unknown);
}

const head = (id = 'up-1') => `"id":"${id}","object":"chat.completion.chunk","created":1,"model":"up"`;
/** A provider text frame with the content literal written exactly as given. */
const textFrame = (literal: string, id?: string) => `data: {${head(id)},"choices":[{"index":0,"delta":{"content":${literal}},"finish_reason":null}]}\n\n`;
const finishFrame = `data: {${head()},"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n`;
const usageFrame = `data: {${head()},"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":9,"total_tokens":12}}\n\n`;

/** Splits bytes at the given offsets (each part is its own network read). */
function cut(bytes: Buffer, at: number[]): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (const end of [...at, bytes.length]) {
    parts.push(bytes.subarray(start, end));
    start = end;
  }
  return parts;
}

describe('the pass-through text path', () => {
  it('gives clients the same bytes and saves the same answer as decoding every piece, for escapes, unicode and emoji split across reads', async () => {
    const texts = ['Hello', ' wor', 'ld', ' say "hi"\n\tback\\slash', ' héllo ✓ \u2028', ' 😀🎉', ' end'];
    const stream = Buffer.from([...texts.map((t) => textFrame(JSON.stringify(t))), finishFrame, usageFrame, 'data: [DONE]\n\n'].join(''));
    // Cut inside the first emoji's four UTF-8 bytes, and inside a frame.
    const emoji = stream.indexOf(Buffer.from('😀'));
    const { fast, normal } = await bothPaths(cut(stream, [40, emoji + 2, stream.indexOf(Buffer.from(' end')) + 2]));

    expect(fast.content).toBe(texts.join(''));
    expect(normal.content).toBe(texts.join(''));
    expect(fast.finish).toBe('stop');
    expect(fast.bytes.equals(normal.bytes)).toBe(true);
    expect(framesOf(fast.bytes).map((f) => (f as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? null)).toEqual([...texts, null]);
  });

  it('means the same as the normal path for escapes only the provider writes, surrogate pairs split across frames and control characters', async () => {
    const literals = ['"First"', '"caf\\u00e9 \\/ \\u00E9"', '"\\ud83d"', '"\\ude00"', '"tab\there"', '""', '" done"'];
    const stream = Buffer.from([...literals.map((l) => textFrame(l)), finishFrame, 'data: [DONE]\n\n'].join(''));
    const { fast, normal } = await bothPaths(cut(stream, [stream.length >> 1]));

    expect(fast.content).toBe('Firstcafé / é😀tab\there done');
    expect(normal.content).toBe(fast.content);
    expect(framesOf(fast.bytes)).toEqual(framesOf(normal.bytes));
    // The control character left as valid JSON, escaped.
    expect(fast.bytes.toString('utf8')).toContain('"content":"tab\\there"');
  });

  it('keeps order and text when plain text frames and other frames take turns', async () => {
    const roleFrame = `data: {${head()},"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}\n\n`;
    const withUsage = `data: {${head()},"choices":[{"index":0,"delta":{"content":" x"},"finish_reason":null}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}\n\n`;
    const frames = [
      roleFrame,
      textFrame('" a"'),
      textFrame('" b"'),
      withUsage,
      textFrame('" c"'),
      // Another id: parsed whole, and the pattern learned anew.
      textFrame('" d"', 'up-2'),
      textFrame('" e"', 'up-2'),
      textFrame('" f"'),
      `data: {${head()},"choices":[{"index":0,"delta":{"content":" g"},"finish_reason":"stop"}]}\n\n`,
      usageFrame,
      'data: [DONE]\n\n',
    ];
    const reads = [frames.slice(0, 3).join(''), frames.slice(3, 7).join(''), frames.slice(7).join('')].map((part) => Buffer.from(part));
    const { fast, normal } = await bothPaths(reads);

    expect(fast.content).toBe('Hi a b x c d e f g');
    expect(normal.content).toBe(fast.content);
    expect(fast.bytes.equals(normal.bytes)).toBe(true);
    const last = framesOf(fast.bytes).at(-1) as { usage: { total_tokens: number }; choices: Array<{ finish_reason: string }> };
    expect(last.choices[0]!.finish_reason).toBe('stop');
    expect(last.usage.total_tokens).toBe(14);
  });

  it('does the same for a local (Ollama) stream, whose lines differ in their time stamp too', async () => {
    const line = (literal: string, stamp: string) => `{"model":"m","created_at":"${stamp}","message":{"role":"assistant","content":${literal}},"done":false}\n`;
    const literals = ['"Hel"', '"lo"', '" say \\"hi\\"\\n"', '" caf\\u00e9 😀"', '"\\ud83d"', '"\\ude00"', '"tab\\there"', '""', '" end"'];
    const stamps = ['2024-07-22T20:33:28.1Z', '2024-07-22T20:33:28.123648Z', '2024-07-22T20:33:28.12Z'];
    const text = [
      ...literals.slice(0, 4).map((l, i) => line(l, stamps[i % 3]!)),
      // A line with more than text: parsed, and the shape learned again afterwards.
      `{"model":"m","created_at":"${stamps[0]}","message":{"role":"assistant","content":" x","thinking":"hmm"},"done":false}\n`,
      ...literals.slice(4).map((l, i) => line(l, stamps[i % 3]!)),
      `{"model":"m","created_at":"${stamps[1]}","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":3,"eval_count":9}\n`,
    ].join('');
    const bytes = Buffer.from(text);
    const emoji = bytes.indexOf(Buffer.from('😀'));
    const { fast, normal } = await bothPaths(cut(bytes, [emoji + 1, bytes.indexOf(Buffer.from('" end"')) + 3]), 'local');

    expect(fast.content).toBe('Hello say "hi"\n café 😀 x😀tab\there end');
    expect(normal.content).toBe(fast.content);
    expect(fast.finish).toBe('stop');
    expect(framesOf(fast.bytes)).toEqual(framesOf(normal.bytes));
    expect(fast.bytes.toString('utf8')).toContain('"content":" caf\\u00e9 😀"');
  });
});
