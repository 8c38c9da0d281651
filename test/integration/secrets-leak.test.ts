import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSecretStore } from '../../server/secrets';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { buildUser, signupAdmin } from '../helpers/builders';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';

const PROVIDER_KEY = 'sk-provider-7f3a9c1e5b2d4f60aa11';
const TOOL_SERVER_KEY = 'tsk-bearer-c0ffee12345678deadbeef';
const TOOL_API_KEY = 'tool-api-key-55aa77bb99cc11dd';
const NEW_PASSWORD = 'correct-horse-battery-8812';
const ADMIN_PASSWORD = 'admin-secret-pass-4471';

/** Every file under `dir` (recursively), as raw bytes. */
function filesUnder(dir: string): Array<{ file: string; bytes: Buffer }> {
  const out: Array<{ file: string; bytes: Buffer }> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push({ file: full, bytes: readFileSync(full) });
  }
  return out;
}

/** Files that hold `secret` in clear, as UTF-8 or UTF-16 (SQLite may store either). */
function holders(files: Array<{ file: string; bytes: Buffer }>, secret: string): string[] {
  const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le')];
  return files.filter((f) => needles.some((n) => f.bytes.includes(n))).map((f) => f.file);
}

describe('secrets never land in logs or the database', () => {
  let server: TestServer;
  let openai: FakeOpenAI;
  let dataDir: string;
  let apiKey: string;
  let snapshots: Array<{ file: string; bytes: Buffer }> = [];

  beforeAll(async () => {
    dataDir = tempDataDir('parley-secrets-');
    openai = await startFakeOpenAI({ key: PROVIDER_KEY, models: ['gpt-fake'] });
    server = await startTestServer({ dataDir, logLevel: 'debug', secrets: fileSecretStore(dataDir, 'a'.repeat(64)) });
    const admin = await signupAdmin(server, { password: ADMIN_PASSWORD });
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [PROVIDER_KEY], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const toolServer = {
      url: 'http://127.0.0.1:9/mcp',
      path: null,
      spec_type: 'url',
      spec: null,
      type: 'mcp',
      auth_type: 'bearer',
      key: TOOL_SERVER_KEY,
      enable: true,
      config: { enable: true },
      info: { id: 'secure', name: 'Secure', description: 'bearer' },
    };
    expect((await as.post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [toolServer] })).status).toBe(200);
    const tool = await as.post('/api/v1/tools/create', {
      id: 'weather',
      name: 'Weather',
      type: 'api',
      config: { url: 'http://127.0.0.1:9/weather', method: 'GET', api_key: TOOL_API_KEY, parameters: { type: 'object', properties: {} } },
    });
    expect(tool.status).toBe(200);

    const alice = await buildUser(server, admin);
    const key = await server.as(alice.token).post('/api/v1/auths/api_key');
    expect(key.status).toBe(200);
    apiKey = key.body.api_key;
    // The key and the password are used, and a wrong password is tried: each is a chance to log them.
    expect((await server.as(apiKey).get('/api/v1/auths/')).status).toBe(200);
    const completion = await server.as(apiKey).post('/api/chat/completions', { model: 'gpt-fake', stream: false, messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.status).toBe(200);
    expect(openai.lastChat()?.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect((await server.as(alice.token).post('/api/v1/auths/update/password', { password: alice.password, new_password: NEW_PASSWORD })).status).toBe(200);
    expect((await server.anon.post('/api/v1/auths/signin', { email: alice.email, password: `${NEW_PASSWORD}-wrong` })).status).toBe(400);
    expect((await server.anon.post('/api/v1/auths/signin', { email: alice.email, password: NEW_PASSWORD })).status).toBe(200);
    // A bad request carrying a secret in its body must not echo it into the log either.
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: 'nope', COMPAT_API_KEYS: [PROVIDER_KEY] });

    // Read while running (WAL not yet checkpointed) and again after a clean stop.
    snapshots = filesUnder(dataDir);
    await server.close();
    snapshots.push(...filesUnder(dataDir));
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });

  it('wrote a log and a database to search', () => {
    const names = snapshots.map((f) => path.basename(f.file));
    expect(names).toContain('parley.log');
    expect(names).toContain('parley.db');
    expect(snapshots.find((f) => f.file.endsWith('parley.log'))!.bytes.length).toBeGreaterThan(0);
    // The search does find what is stored in clear (a control for the checks below).
    expect(holders(snapshots, 'admin@example.com').some((f) => f.endsWith('parley.db') || f.endsWith('parley.db-wal'))).toBe(true);
  });

  it.each([
    ['provider key', () => PROVIDER_KEY],
    ['tool-server bearer key', () => TOOL_SERVER_KEY],
    ['tool api key', () => TOOL_API_KEY],
    ['user API key', () => apiKey],
    ['password', () => NEW_PASSWORD],
    ['admin password', () => ADMIN_PASSWORD],
  ])('keeps the %s out of every file in the data dir', (_label, secret) => {
    expect(secret().length).toBeGreaterThan(10);
    expect(holders(snapshots, secret())).toEqual([]);
  });
});
