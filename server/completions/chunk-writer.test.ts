import { createServer, type Server, type ServerResponse } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkWriter, type ChunkExtensions } from './chunk-writer';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A real HTTP server whose handler gets the response; returns its port. */
async function serve(handler: (res: ServerResponse) => void | Promise<void>): Promise<number> {
  const server = createServer((_req, res) => void handler(res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The text a client reads from a stream written by `write`. */
async function clientText(extensions: ChunkExtensions, write: (stream: ChunkWriter) => Promise<void>, model = 'm'): Promise<string> {
  const port = await serve(async (res) => {
    const stream = new ChunkWriter(res, { id: 'chatcmpl-1', created: 1700000000, model }, extensions);
    await write(stream);
    stream.end();
  });
  return (await fetch(`http://127.0.0.1:${port}/`)).text();
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'm' };
/** The expected bytes of frames (key order as written), ending with [DONE]. */
const sse = (...frames: object[]) => `${frames.map((f) => `data: ${JSON.stringify({ ...head, ...f })}\n\n`).join('')}data: [DONE]\n\n`;
const source = { source: { id: 'k', name: 'KB' }, document: ['d'], metadata: [] };
const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };

describe('the OpenAI chunk writer', () => {
  it('writes the Parley UI’s stream: sources, status and tool steps as frames of their own, usage and saved ids on the last', async () => {
    const text = await clientText('parley', async (w) => {
      await w.event({ type: 'sources', sources: [source] });
      await w.event({ type: 'status', status: { action: 'knowledge_search', description: 'Searching', done: true } });
      await w.event({ type: 'content', text: 'He said "hi"' });
      await w.event({ type: 'tool_step', step: { id: 'c1', name: 'f', arguments: '{}', result: 'r', error: null, duration_ms: 3 } });
      await w.event({ type: 'tool_calls', calls: [{ id: 'x', type: 'function', function: { name: 'g', arguments: '{}' } }] });
      await w.finish('stop', usage, { chat_id: 'c', message_id: 'm1' });
    });
    expect(text).toBe(
      sse(
        { choices: [], sources: [source] },
        { choices: [], status: { action: 'knowledge_search', description: 'Searching', done: true } },
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'He said "hi"' }, finish_reason: null }] },
        { choices: [], tool_step: { id: 'c1', name: 'f', arguments: '{}', result: 'r', error: null, duration_ms: 3 } },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage, chat_id: 'c', message_id: 'm1' },
      ),
    );
  });

  it('writes the /v1 stream with OpenAI’s chunks only: sources on an empty first chunk, tool calls, then a usage chunk', async () => {
    const text = await clientText('openai', async (w) => {
      await w.event({ type: 'sources', sources: [source] });
      await w.event({ type: 'status', status: { action: 'knowledge_search', description: 'Searching', done: true } });
      await w.event({ type: 'content', text: 'x' });
      await w.event({ type: 'tool_calls', calls: [{ id: 'call1', type: 'function', function: { name: 'f', arguments: '{}' } }] });
      await w.finish('tool_calls', usage);
    });
    expect(text).toBe(
      sse(
        { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }], sources: [source] },
        { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finish_reason: null }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        { choices: [], usage },
      ),
    );
  });

  it('ends a failed answer in each API’s error form', async () => {
    const started = { choices: [{ index: 0, delta: { role: 'assistant', content: 'a' }, finish_reason: null }] };
    const parley = await clientText('parley', async (w) => {
      await w.content('a');
      await w.error('boom', { chat_id: 'c' });
    });
    expect(parley).toBe(sse(started, { choices: [{ index: 0, delta: {}, finish_reason: 'error' }], error: { message: 'boom', type: 'provider_error', code: 'PROVIDER_FAILED' }, chat_id: 'c' }));
    const openai = await clientText('openai', async (w) => {
      await w.content('a');
      await w.error('boom');
    });
    expect(openai).toBe(sse(started, { choices: [], error: { message: 'boom', type: 'api_error', code: 'provider_failed' } }));
  });

  it('writes text given as string literals exactly as the same text given decoded', async () => {
    const texts = ['Hi', ' "there"\n', ' é 😀', '\\'];
    const decoded = await clientText(
      'openai',
      async (stream) => {
        for (const text of texts) await stream.content(text);
        await stream.finish('stop', undefined);
      },
      'team/"model"',
    );
    const literals = await clientText(
      'openai',
      async (stream) => {
        await stream.literals(texts.slice(0, 2).map((text) => JSON.stringify(text)));
        await stream.content(texts[2]!);
        await stream.literals([JSON.stringify(texts[3])]);
        await stream.finish('stop', undefined);
      },
      'team/"model"',
    );
    expect(literals).toBe(decoded);
    const first = JSON.parse(decoded.split('\n\n')[0]!.slice(6)) as { model: string; choices: Array<{ delta: Record<string, string> }> };
    expect(first.model).toBe('team/"model"');
    expect(first.choices[0]!.delta).toEqual({ role: 'assistant', content: 'Hi' });
  });

  it('sends the frames of one loop turn in one write, and ends with [DONE]', async () => {
    const writes: number[] = [];
    const port = await serve((res) => {
      const original = res.write.bind(res);
      res.write = ((chunk: string) => {
        writes.push(chunk.length);
        return original(chunk);
      }) as typeof res.write;
      const stream = new ChunkWriter(res, { id: 'chatcmpl-1', created: 7, model: 'm' }, 'parley');
      void stream.content('a');
      void stream.content('b');
      void stream.content('"c"\n');
      setTimeout(() => {
        void stream.finish('stop', { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 }, {});
        stream.end();
      }, 5);
    });
    const text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    // The three fragments of one loop turn left in one write; finish and [DONE] in the final end().
    expect(writes).toHaveLength(1);
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)));
    expect(chunks.map((c) => c.choices[0].delta.content ?? null)).toEqual(['a', 'b', '"c"\n', null]);
    expect(chunks[0]).toEqual({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 7, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'a' }, finish_reason: null }] });
    expect(chunks[3]).toMatchObject({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { total_tokens: 4 } });
  });

  it('sends the first text at once, then gathers text that comes every millisecond into writes some milliseconds apart', async () => {
    const writes: Array<{ at: number; text: string }> = [];
    let started = 0;
    const port = await serve(async (res) => {
      const original = res.write.bind(res);
      res.write = ((chunk: Buffer) => {
        writes.push({ at: performance.now() - started, text: chunk.toString() });
        return original(chunk);
      }) as typeof res.write;
      const stream = new ChunkWriter(res, { id: 'chatcmpl-1', created: 7, model: 'm' }, 'parley');
      started = performance.now();
      // 40 tokens, one a millisecond (a fast provider), then a pause, then one more.
      for (let i = 0; i < 40; i += 1) {
        void stream.content(`t${i} `);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const late = performance.now();
      void stream.content('late');
      await nextTurn();
      await nextTurn();
      writes.push({ at: performance.now() - late, text: 'mark' });
      stream.end();
    });
    const text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    // Every token arrives, in order.
    const chunks = text.split('\n\n').filter((f) => f.startsWith('data: {')).map((f) => JSON.parse(f.slice(6)));
    expect(chunks.map((c) => c.choices[0].delta.content).join('')).toBe(`${Array.from({ length: 40 }, (_, i) => `t${i} `).join('')}late`);
    // The first token left alone, at once; the next 39 in far fewer writes than tokens.
    expect(writes[0]!.text).toContain('"t0 "');
    expect(writes[0]!.text).not.toContain('"t1 "');
    const tokenWrites = writes.filter((w) => w.text.includes('"t'));
    expect(tokenWrites.length).toBeLessThan(20);
    // After a pause the next text is not held back: it left before the mark two loop turns later.
    const lateAt = writes.findIndex((w) => w.text.includes('"late"'));
    const markAt = writes.findIndex((w) => w.text === 'mark');
    expect(lateAt).toBeGreaterThan(-1);
    expect(lateAt).toBeLessThan(markAt);
  });

  it('makes the writer wait while the client does not read, and resumes when it does', async () => {
    let blockedAfter = -1;
    let resumed = false;
    const port = await serve(async (res) => {
      const stream = new ChunkWriter(res, { id: 'x', created: 1, model: 'm' }, 'openai');
      const fragment = 'y'.repeat(16 * 1024);
      for (let i = 0; i < 100_000; i += 1) {
        const wait = stream.content(fragment);
        await nextTurn();
        const pending = stream.content('');
        if (wait || pending) {
          blockedAfter = i;
          await (wait ?? pending);
          resumed = true;
          break;
        }
      }
      stream.end();
    });
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    for (let i = 0; i < 250 && blockedAfter < 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    // Blocked long before the whole answer was buffered (a few MB at most, not 1.6 GB).
    expect(blockedAfter).toBeGreaterThanOrEqual(0);
    expect(blockedAfter).toBeLessThan(1000);
    expect(resumed).toBe(false);
    socket.resume();
    socket.on('data', () => undefined);
    for (let i = 0; i < 100 && !resumed; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(resumed).toBe(true);
    socket.destroy();
  });
});
