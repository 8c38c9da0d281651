import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { parseSseChunks } from './sse-chunks';

const errorOf = (error: object) => new APIError(undefined, error, undefined, undefined);

function responseOf(parts: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

async function collect(response: Response): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of parseSseChunks(response, errorOf)) out.push(chunk);
  return out;
}

describe('parseSseChunks', () => {
  it('reads chunks split anywhere across network reads, stopping at [DONE]', async () => {
    const text = 'data: {"choices":[{"delta":{"content":"hé"}}]}\n\n: keep-alive\n\ndata: {"choices":[],"usage":{"prompt_tokens":1,"total_tokens":2}}\r\n\r\ndata: [DONE]\n\ndata: {"late":true}\n\n';
    const bytes = Array.from(text);
    const parts = [bytes.slice(0, 7).join(''), bytes.slice(7, 31).join(''), bytes.slice(31).join('')];
    expect(await collect(responseOf(parts))).toEqual([
      { choices: [{ delta: { content: 'hé' } }] },
      { choices: [], usage: { prompt_tokens: 1, total_tokens: 2 } },
    ]);
  });

  it('throws the client error for a frame that carries an error, after the pieces before it', async () => {
    const out: unknown[] = [];
    const run = async () => {
      for await (const chunk of parseSseChunks(responseOf(['data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"error":{"message":"model exploded"}}\n\n']), errorOf)) out.push(chunk);
    };
    await expect(run()).rejects.toSatisfy((e: unknown) => e instanceof APIError && e.message.includes('model exploded'));
    expect(out).toHaveLength(1);
  });

  it('throws on a frame that is not JSON', async () => {
    await expect(collect(responseOf(['data: {oops\n\n']))).rejects.toThrow(SyntaxError);
  });
});
