import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from './provider';
import { createFrameReader, DONE, sseChunks, upstreamErrorMessage } from './sse-chunks';

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

  it('reads \\r line ends split between reads, extra blank lines, comment lines and a last frame without its blank line', async () => {
    const frame = (text: string) => `data: {"choices":[{"delta":{"content":"${text}"}}]}`;
    expect(await collect([`${frame('a')}\r`, `\n\r\n\n\n: ping\r\n${frame('b')}\r\r`, `${frame('c')}\n\nid: 7\n${frame('d')}`])).toEqual(
      ['a', 'b', 'c', 'd'].map((content) => ({ choices: [{ delta: { content } }] })),
    );
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

describe('createFrameReader', () => {
  const frame = (content: string, extra = '') => `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]${extra}}`;

  it('reads text frames shaped like the previous one as their string literal, escapes and all', () => {
    const read = createFrameReader();
    expect(read(frame('first'))).toEqual(JSON.parse(frame('first')));
    expect(read(frame('tok '))).toBe('"tok "');
    expect(read(frame('say "hi"\n\té \u2028'))).toBe(JSON.stringify('say "hi"\n\té \u2028'));
    expect(read(frame(''))).toBe('""');
    // Escapes the provider chose are kept as they came: they mean the same in any JSON.
    expect(read(frame('x').replace('"x"', '"caf\\u00e9 \\/ \\ud83d"'))).toBe('"caf\\u00e9 \\/ \\ud83d"');
    expect(read('[DONE]')).toBe(DONE);
  });

  it('parses whole every frame that differs around the text, and what is not text alone', () => {
    const read = createFrameReader();
    read(frame('first'));
    // Text that would close the literal early cannot pass for a text frame.
    const tricky = `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a","tool_calls":[{"index":0}]},"finish_reason":null}]}`;
    expect(read(tricky)).toEqual(JSON.parse(tricky));
    read(frame('again'));
    expect(read(frame('x', ',"usage":{"prompt_tokens":1,"total_tokens":2}'))).toEqual(JSON.parse(frame('x', ',"usage":{"prompt_tokens":1,"total_tokens":2}')));
    const finish = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}';
    expect(read(finish)).toEqual(JSON.parse(finish));
    const other = frame('tok').replace('"id":"c1"', '"id":"c2"');
    expect(read(other)).toEqual(JSON.parse(other));
  });

  it('never learns from a frame whose text sits beside what we read', () => {
    const read = createFrameReader();
    const withUsage = frame('a', ',"usage":{"prompt_tokens":1,"total_tokens":2}');
    read(withUsage);
    expect(read(withUsage.replace('"a"', '"b"'))).toEqual(JSON.parse(withUsage.replace('"a"', '"b"')));
  });

  it('still throws on a provider error and on JSON that does not parse', () => {
    const read = createFrameReader();
    read(frame('first'));
    expect(() => read('{"error":{"message":"model exploded"}}')).toThrow(/model exploded/);
    expect(() => read(frame('x').replace('"x"', '"x" "y"'))).toThrow(SyntaxError);
  });

  it('re-encodes a literal that could not be copied safely into another JSON document', () => {
    const read = createFrameReader();
    read(frame('first'));
    // A raw tab is not JSON: it comes back escaped.
    expect(read(frame('x').replace('"x"', '"a\tb"'))).toBe('"a\\tb"');
  });
});
