import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from './provider';
import { DONE, sseChunks, upstreamErrorMessage } from './sse-chunks';

// A loopback server that writes the given parts with a pause between them (separate socket reads).
let parts: string[] = [];
const server = createServer(async (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const part of parts) {
    res.write(part);
    await new Promise((r) => setTimeout(r, 5));
  }
  res.end();
});
beforeAll(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', r)));
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function bodyOf(next: string[]): Promise<IncomingMessage> {
  parts = next;
  return new Promise((resolve, reject) => request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, resolve).on('error', reject).end());
}

async function collect(next: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of sseChunks(await bodyOf(next))) out.push(chunk);
  return out;
}

describe('sseChunks', () => {
  it('reads frames split anywhere across network reads, and marks [DONE]', async () => {
    const text = 'data: {"choices":[{"delta":{"content":"hé"}}]}\n\n: keep-alive\n\ndata: {"choices":[],"usage":{"prompt_tokens":1,"total_tokens":2}}\r\n\r\ndata: [DONE]\n\n';
    const chars = Array.from(text);
    expect(await collect([chars.slice(0, 7).join(''), chars.slice(7, 31).join(''), chars.slice(31).join('')])).toEqual([
      { choices: [{ delta: { content: 'hé' } }] },
      { choices: [], usage: { prompt_tokens: 1, total_tokens: 2 } },
      DONE,
    ]);
  });

  it('joins a frame of several data lines', async () => {
    expect(await collect(['data: {"choices":\ndata: []}\n\n'])).toEqual([{ choices: [] }]);
  });

  it('throws a provider error for a frame that carries an error, after the pieces before it', async () => {
    const out: unknown[] = [];
    const run = async () => {
      for await (const chunk of sseChunks(await bodyOf(['data: {"choices":[{"delta":{"content":"a"}}]}\n\n', 'data: {"error":{"message":"model exploded"}}\n\n']))) out.push(chunk);
    };
    await expect(run()).rejects.toSatisfy((e: unknown) => e instanceof ProviderError && e.message.includes('model exploded'));
    expect(out).toHaveLength(1);
  });

  it('throws on a frame that is not JSON', async () => {
    await expect(collect(['data: {oops\n\n'])).rejects.toThrow(SyntaxError);
  });

  it('words upstream errors as the openai client does', () => {
    expect(upstreamErrorMessage(404, '{"error":{"message":"no such model"}}')).toBe('404 no such model');
    expect(upstreamErrorMessage(500, '')).toBe('500 status code (no body)');
    expect(upstreamErrorMessage(502, 'Bad gateway')).toBe('502 Bad gateway');
  });
});
