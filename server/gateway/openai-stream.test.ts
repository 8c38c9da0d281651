import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiStream } from './openai-stream';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The bytes a client reads from a /v1 stream written by `write`. */
async function clientBytes(write: (stream: OpenAiStream) => Promise<void>): Promise<string> {
  const server = createServer(async (_req, res: ServerResponse) => {
    const stream = new OpenAiStream(res, { id: 'chatcmpl-1', created: 1700000000, model: 'team/"model"' });
    await write(stream);
    await stream.finish('stop', { prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 });
    stream.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).text();
}

describe('the /v1 stream', () => {
  it('writes text given as string literals exactly as the same text given decoded', async () => {
    const texts = ['Hi', ' "there"\n', ' é 😀', '\\'];
    const decoded = await clientBytes(async (stream) => {
      for (const text of texts) await stream.content(text);
    });
    const literals = await clientBytes(async (stream) => {
      await stream.literals(texts.slice(0, 2).map((text) => JSON.stringify(text)));
      await stream.content(texts[2]!);
      await stream.literals([JSON.stringify(texts[3])]);
    });
    expect(literals).toBe(decoded);
    const first = JSON.parse(decoded.split('\n\n')[0]!.slice(6)) as { model: string; choices: Array<{ delta: Record<string, string> }> };
    expect(first.model).toBe('team/"model"');
    expect(first.choices[0]!.delta).toEqual({ role: 'assistant', content: 'Hi' });
  });
});
