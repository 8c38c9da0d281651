import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamAgent, lineBatches, postJson, readText } from './http-stream';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server answering with `reads`, each its own network read. */
async function answering(status: number, reads: Buffer[]): Promise<URL> {
  const server = createServer(async (req, res) => {
    req.resume();
    res.writeHead(status);
    for (const part of reads) {
      res.write(part);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    res.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

/** The bytes of `text`, cut in the middle of its first emoji's UTF-8 bytes. */
function splitInEmoji(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const at = bytes.indexOf(Buffer.from('😀')) + 2;
  return [bytes.subarray(0, at), bytes.subarray(at)];
}

describe('reading an upstream body', () => {
  it('decodes a character split between two network reads whole, in lines', async () => {
    const agent = createStreamAgent();
    const url = await answering(200, splitInEmoji('{"content":"a 😀 b"}\n{"content":"é"}'));
    const response = await postJson(url, {}, {}, agent);
    const lines: string[] = [];
    for await (const batch of lineBatches(response.body)) lines.push(...batch);
    expect(lines).toEqual(['{"content":"a 😀 b"}', '{"content":"é"}']);
    await agent.close();
  });

  it('decodes an error body the same way', async () => {
    const agent = createStreamAgent();
    const response = await postJson(await answering(500, splitInEmoji('failed 😀 here')), {}, {}, agent);
    expect(response.status).toBe(500);
    expect(await readText(response.body)).toBe('failed 😀 here');
    await agent.close();
  });
});
