import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/** A download URL with a password and a token is the admin's: colleagues, stored errors and logs see it redacted. */
describe('built-in model download URLs', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let http: Server;
  let base: string;
  const authorizations: Array<string | undefined> = [];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    http = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      res.writeHead(503).end(`unavailable: ${req.url}`);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('shows the URL without user, password and token to non-admins, and logs none of them', async () => {
    const url = `http://mirror-user:Pa55word@${base}/models/tiny.gguf?token=hf_SECRET123`;
    const started = await server.as(admin.token).post('/builtin/models/download', { url });
    expect(started.status, started.text).toBe(200);
    const id = started.body.id as string;
    await expect.poll(async () => (await server.as(admin.token).get(`/builtin/models/${id}`)).body.status, { timeout: 20_000 }).not.toBe('downloading');
    // The password went to the server as a Basic header (fetch refuses user:pass@ URLs).
    expect(authorizations[0]).toBe(`Basic ${Buffer.from('mirror-user:Pa55word').toString('base64')}`);
    expect((await server.as(admin.token).get(`/builtin/models/${id}`)).body.source_url).toBe(url);

    const one = await server.as(alice.token).get(`/builtin/models/${id}`);
    const list = await server.as(alice.token).get('/builtin/models');
    expect(one.body.source_url).toBe(`http://${base}/models/tiny.gguf?token=…`);
    const logs = readdirSync(path.join(server.dataDir, 'logs')).map((f) => readFileSync(path.join(server.dataDir, 'logs', f), 'utf8')).join('\n');
    for (const secret of ['Pa55word', 'mirror-user', 'hf_SECRET123']) {
      expect(JSON.stringify(one.body)).not.toContain(secret);
      expect(JSON.stringify(list.body)).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  }, 60_000);

  it('answers a malformed percent-escape with 400 naming the url', async () => {
    const res = await server.as(admin.token).post('/builtin/models/download', { url: `http://${base}/bad%E0%A4%A.gguf` });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/url/);
  });
});
