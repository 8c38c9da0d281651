import { createServer, type ServerResponse } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseWriter } from './sse-writer';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A real HTTP server whose handler gets the response; returns the URL port. */
async function serve(handler: (res: ServerResponse) => void): Promise<number> {
  const server = createServer((_req, res) => handler(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => server.close() });
  return (server.address() as AddressInfo).port;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the SSE writer', () => {
  it('writes OpenAI chunks, several frames of one loop turn in one write, and ends with [DONE]', async () => {
    const writes: number[] = [];
    const port = await serve((res) => {
      const original = res.write.bind(res);
      res.write = ((chunk: string) => {
        writes.push(chunk.length);
        return original(chunk);
      }) as typeof res.write;
      const sse = new SseWriter(res, { id: 'chatcmpl-1', created: 7, model: 'm' });
      void sse.content('a');
      void sse.content('b');
      void sse.content('"c"\n');
      setTimeout(() => {
        void sse.finish('stop', { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 }, {});
        sse.end();
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

  it('makes the writer wait while the client does not read, and resumes when it does', async () => {
    let blockedAfter = -1;
    let resumed = false;
    const port = await serve(async (res) => {
      const sse = new SseWriter(res, { id: 'x', created: 1, model: 'm' });
      const fragment = 'y'.repeat(16 * 1024);
      for (let i = 0; i < 100_000; i += 1) {
        const wait = sse.content(fragment);
        await nextTurn();
        const pending = sse.content('');
        if (wait || pending) {
          blockedAfter = i;
          await (wait ?? pending);
          resumed = true;
          break;
        }
      }
      sse.end();
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
