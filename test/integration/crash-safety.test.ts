import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import knexFactory from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../server/platform/db/integrity';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { createClient, type ApiClient } from '../helpers/client';
import { tempDataDir } from '../helpers/server';

/**
 * kill -9 of the built service (dist/, built by the suite's global setup) in the middle of an
 * ingestion, a streamed answer saved into a chat, and a burst of config writes; then a restart
 * on the same data dir. Nothing half-written may survive, and finished work must all be there.
 */
const root = path.resolve(import.meta.dirname, '../..');
const ADMIN = { name: 'Admin', email: 'admin@example.com', password: 'admin-password' };

interface Service {
  child: ChildProcess;
  url: string;
}
const running = new Set<ChildProcess>();

function serve(dataDir: string): Promise<Service> {
  const child = spawn(process.execPath, [path.join(root, 'dist/server/cli.js'), '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /^Parley listening on (http:\/\/\S+)$/m.exec(out);
      if (match) resolve({ child, url: match[1] as string });
    });
  });
}

async function kill9(service: Service): Promise<void> {
  service.child.removeAllListeners('exit');
  const exited = new Promise((r) => service.child.once('exit', r));
  service.child.kill('SIGKILL');
  await exited;
  running.delete(service.child);
}

async function stop(service: Service): Promise<void> {
  service.child.removeAllListeners('exit');
  const exited = new Promise((r) => service.child.once('exit', r));
  service.child.kill('SIGTERM');
  await exited;
  running.delete(service.child);
}

async function admin(service: Service, first: boolean): Promise<ApiClient> {
  const anon = createClient(service.url);
  const res = first ? await anon.post('/api/v1/auths/signup', ADMIN) : await anon.post('/api/v1/auths/signin', { email: ADMIN.email, password: ADMIN.password });
  expect(res.status, res.text).toBe(200);
  return createClient(service.url, res.body.token);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function fileIds(dataDir: string): Promise<Set<string>> {
  const db = knexFactory({ client: 'sqlite3', connection: { filename: path.join(dataDir, 'parley.db') }, useNullAsDefault: true });
  try {
    return new Set(((await db('files').select('id')) as Array<{ id: string }>).map((r) => r.id));
  } finally {
    await db.destroy();
  }
}

async function upload(api: ApiClient, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([text], { type: 'text/plain' }), name);
  const res = await api.raw('POST', '/api/v1/chats/attachment/upload', form);
  expect(res.status, res.text).toBe(200);
  return res.body[0].id as string;
}

type KbFile = { id: string; name: string; status: string; error?: string | null };
async function kbFiles(api: ApiClient, kb: string): Promise<KbFile[]> {
  const res = await api.get(`/api/v1/knowledge/${kb}`);
  expect(res.status, res.text).toBe(200);
  return res.body.files as KbFile[];
}

const WORDS = ['river', 'copper', 'lantern', 'meadow', 'harbor', 'violet', 'granite', 'orchard', 'falcon', 'ember', 'tundra', 'saffron'];
function essay(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) out.push(WORDS[(i * 7 + seed * 13 + (i >> 3)) % WORDS.length]!);
  return `${out.join(' ')}.\n`;
}

describe('crash safety (kill -9 and restart)', () => {
  const dirs: string[] = [];
  let openai: FakeOpenAI;

  beforeAll(async () => {
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
  });
  afterEach(async () => {
    for (const child of running) {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
    }
    running.clear();
  });
  afterAll(async () => {
    await openai?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps finished documents and finishes or fails the interrupted ones after a kill during ingestion', async () => {
    const dataDir = tempDataDir('parley-crash-');
    dirs.push(dataDir);
    let service = await serve(dataDir);
    let api = await admin(service, true);
    const kb = (await api.post('/api/v1/knowledge/create', { name: 'Crash', description: '' })).body.id as string;
    const done = await upload(api, 'done.txt', 'The launch code word for the spring release is PELICAN.\n');
    expect((await api.post(`/api/v1/knowledge/${kb}/file/add`, { file_id: done })).status).toBe(200);
    for (let i = 0; i < 200 && (await kbFiles(api, kb))[0]?.status !== 'completed'; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect((await kbFiles(api, kb))[0]?.status).toBe('completed');

    const big: string[] = [];
    for (let i = 0; i < 12; i += 1) big.push(await upload(api, `essay-${i}.txt`, essay(i, 60_000)));
    // An upload still arriving when the service dies must not leave a partial file behind.
    const partial = request(`${service.url}/api/v1/chats/attachment/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'multipart/form-data; boundary=cut', 'content-length': String(10_000_000) },
    });
    partial.on('error', () => undefined);
    partial.write(`--cut\r\nContent-Disposition: form-data; name="files"; filename="cut.txt"\r\nContent-Type: text/plain\r\n\r\n${'x'.repeat(200_000)}`);
    await new Promise((r) => setTimeout(r, 300));
    for (const id of big) expect((await api.post(`/api/v1/knowledge/${kb}/file/add`, { file_id: id })).status).toBe(200);
    const atKill = await kbFiles(api, kb);
    await kill9(service);
    partial.destroy();
    expect(atKill.some((f) => f.status !== 'completed' && f.status !== 'failed')).toBe(true);
    expect(await checkIntegrity(path.join(dataDir, 'parley.db'))).toBe('ok');

    service = await serve(dataDir);
    api = await admin(service, false);
    let files: KbFile[] = [];
    for (let i = 0; i < 1200; i += 1) {
      files = await kbFiles(api, kb);
      if (files.every((f) => f.status === 'completed' || f.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(files).toHaveLength(13);
    for (const f of files) {
      expect(['completed', 'failed']).toContain(f.status);
      if (f.status === 'failed') expect(f.error ?? '').not.toBe('');
    }
    expect(files.find((f) => f.id === done)?.status).toBe('completed');
    const hits = await api.post('/api/v1/retrieval/query/collection', { collection_names: [kb], query: 'launch code word spring release', k: 3 });
    expect(hits.status, hits.text).toBe(200);
    expect(hits.body.documents[0].join(' ')).toContain('PELICAN');

    // Every stored upload belongs to a file row: nothing half-written is left behind.
    const ids = await fileIds(dataDir);
    expect(filesUnder(path.join(dataDir, 'uploads')).length).toBeGreaterThanOrEqual(13);
    const orphans = filesUnder(path.join(dataDir, 'uploads')).filter((f) => ![...ids].some((id) => path.basename(f).startsWith(id)));
    expect(orphans).toEqual([]);
    await stop(service);
    expect(await checkIntegrity(path.join(dataDir, 'parley.db'))).toBe('ok');
  }, 150_000);

  it('keeps the question and the answer so far, marked interrupted, after a kill in the middle of a streamed answer', async () => {
    const dataDir = tempDataDir('parley-crash-');
    dirs.push(dataDir);
    const fullText = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    // The provider streams 10 pieces and then stalls, so the kill lands in the middle of the answer.
    openai.reply({ text: fullText, chunks: 60, hangAfter: 10 });
    let service = await serve(dataDir);
    let api = await admin(service, true);
    expect((await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const chat = (await api.post('/api/v1/chats/new', { title: 'story' })).body.id as string;
    const res = await fetch(`${service.url}/api/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ model: 'gpt-fake', stream: true, chat_id: chat, messages: [{ role: 'user', content: 'Tell me a story' }] }),
    });
    expect(res.status).toBe(200);
    let seen = '';
    const reader = res.body!.getReader();
    while ((seen.match(/"content":"[^"]/g) ?? []).length < 5) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    const streamed = [...seen.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('');
    // The growing answer is saved at least every 2 s while it streams: another tab sees it.
    await new Promise((r) => setTimeout(r, 2200));
    type Saved = { role: string; content: string; status: string; error: string | null; parent_id: string | null; id: string };
    const live = Object.values((await api.get(`/api/v1/chats/${chat}`)).body.history.messages) as Saved[];
    expect(live.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'streaming'],
    ]);
    expect(live[1]!.content.length).toBeGreaterThanOrEqual(streamed.length);

    await kill9(service);
    await reader.cancel().catch(() => undefined);
    expect(seen).not.toContain('[DONE]');
    expect(await checkIntegrity(path.join(dataDir, 'parley.db'))).toBe('ok');

    service = await serve(dataDir);
    api = await admin(service, false);
    const saved = await api.get(`/api/v1/chats/${chat}`);
    expect(saved.status, saved.text).toBe(200);
    const messages = Object.values(saved.body.history.messages) as Saved[];
    const question = messages.find((m) => m.role === 'user');
    const answer = messages.find((m) => m.role === 'assistant');
    expect(question?.content).toBe('Tell me a story');
    // The answer up to the kill: every piece the client had seen, marked interrupted (the chat offers Continue).
    expect(answer?.parent_id).toBe(question?.id);
    expect(answer?.status).toBe('interrupted');
    expect(answer?.error ?? '').toMatch(/^Stopped\b/);
    expect(answer!.content.startsWith(streamed)).toBe(true);
    expect(fullText.startsWith(answer!.content)).toBe(true);
    expect(saved.body.history.current_id).toBe(answer?.id);
    await stop(service);
  }, 90_000);

  it('keeps one whole config value after a kill during a burst of config writes', async () => {
    const dataDir = tempDataDir('parley-crash-');
    dirs.push(dataDir);
    let service = await serve(dataDir);
    let api = await admin(service, true);
    const values = Array.from({ length: 40 }, (_, i) => [`http://127.0.0.1:${10_000 + i}/v1`, `http://127.0.0.1:${20_000 + i}/v1`]);
    const write = (urls: string[]) => api.post('/compat/config/update', { COMPAT_API_BASE_URLS: urls, COMPAT_API_KEYS: ['', ''], COMPAT_API_CONFIGS: {} });
    expect((await write(values[0]!)).status).toBe(200);
    const writes = values.slice(1).map((urls) => write(urls).catch(() => undefined));
    await new Promise((r) => setTimeout(r, 30));
    await kill9(service);
    await Promise.all(writes);
    expect(await checkIntegrity(path.join(dataDir, 'parley.db'))).toBe('ok');

    service = await serve(dataDir);
    api = await admin(service, false);
    const config = await api.get('/compat/config');
    expect(config.status, config.text).toBe(200);
    const urls = config.body.COMPAT_API_BASE_URLS as string[];
    expect(values.some((v) => JSON.stringify(v) === JSON.stringify(urls))).toBe(true);
    expect(config.body.COMPAT_API_KEYS).toHaveLength(urls.length);
    // The service still takes writes after the restart.
    expect((await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [], COMPAT_API_KEYS: [], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    await stop(service);
  }, 60_000);
});
