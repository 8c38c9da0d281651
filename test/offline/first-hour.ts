// The whole first hour of Parley with no network but loopback: run inside `unshare -n` by
// test/integration/offline-first-hour.test.ts. Starts the built service (dist/server/cli.js) on a
// new data dir, then as a person would: first-run setup and the owner account, a GGUF imported
// (a tiny generated one), a chat with it, a document into a knowledge base and a search of it,
// a backup. Prints one JSON line with what it saw; exits non-zero with the step that failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type ApiClient } from '../helpers/client';
import { tinyGguf } from '../fixtures/tiny-gguf';

const root = path.resolve(import.meta.dirname, '../..');

function ok<T>(res: { status: number; body: T; text: string }, step: string): T {
  if (res.status !== 200) throw new Error(`${step}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-first-hour-'));
  const child = spawn(process.execPath, [path.join(root, 'dist/server/cli.js'), '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seen: Record<string, unknown> = { interfaces: Object.keys(os.networkInterfaces()).sort() };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`start: no "listening" line in 60 s: ${out}`)), 60_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /Parley listening on (\S+)/.exec(out);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`start: the service exited (${code}): ${out}`)));
    });
    const anon = createClient(url);

    // First run: the setup state (it looks for a local Ollama, on loopback), then the owner account.
    seen.onboarding = ok(await anon.get<{ onboarding: boolean }>('/api/config'), 'public config').onboarding;
    const owner = ok(await anon.post<{ token: string; role: string }>('/api/v1/auths/signup', { name: 'Owner', email: 'owner@example.com', password: 'first-hour-password' }), 'sign up');
    seen.role = owner.role;
    const as: ApiClient = createClient(url, owner.token);
    seen.setup = ok(await as.get<{ needed: boolean; ollama: { found: boolean } }>('/api/v1/desktop/setup'), 'setup state');

    // A model from a file (as from a USB stick): no download.
    const form = new FormData();
    form.append('file', new Blob([tinyGguf()]), 'tiny-llama.F32.gguf');
    const model = ok(await as.raw<{ id: string; status: string }>('POST', '/builtin/models/import', form), 'import GGUF');
    seen.model = model.status;

    const chat = ok(await as.post<{ id: string }>('/api/v1/chats/new', { title: 'First hour' }), 'new chat');
    const answer = await as.post('/api/chat/completions', { model: model.id, chat_id: chat.id, messages: [{ role: 'user', content: 'hello there' }], stream: true, max_tokens: 8, temperature: 0 });
    if (answer.status !== 200) throw new Error(`chat: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
    const frames = answer.text.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> });
    seen.answer = frames.map((f) => f.choices?.[0]?.delta?.content ?? '').join('');
    seen.done = answer.text.trim().endsWith('data: [DONE]');

    const upload = new FormData();
    upload.append('files', new Blob(['The lighthouse key hangs in the harbourmaster office, on the second hook by the door.']), 'keys.txt');
    const file = ok(await as.raw<Array<{ id: string }>>('POST', '/api/v1/chats/attachment/upload', upload), 'upload')[0]!;
    const base = ok(await as.post<{ id: string }>('/api/v1/knowledge/create', { name: 'Harbour', description: 'first hour' }), 'knowledge base');
    ok(await as.post(`/api/v1/knowledge/${base.id}/file/add`, { file_id: file.id }), 'add file');
    for (const deadline = Date.now() + 60_000; ; ) {
      const files = ok(await as.get<{ files: Array<{ status: string; error?: string }> }>(`/api/v1/knowledge/${base.id}`), 'knowledge detail').files;
      if (files.every((f) => f.status === 'completed')) break;
      if (files.some((f) => f.status === 'failed')) throw new Error(`ingestion failed: ${files[0]?.error ?? ''}`);
      if (Date.now() > deadline) throw new Error('ingestion: not done in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const hits = ok(await as.post<{ documents: string[][] }>('/api/v1/retrieval/query/collection', { collection_names: [base.id], query: 'where is the lighthouse key', k: 1, relevance_threshold: 0 }), 'search');
    seen.search = hits.documents[0]?.[0] ?? null;

    const backup = ok(await as.post<{ name: string; size: number }>('/api/v1/backups'), 'backup');
    seen.backup = { name: backup.name, exists: existsSync(path.join(dataDir, 'backups', backup.name)), size: backup.size };
    process.stdout.write(`${JSON.stringify({ ok: true, seen })}\n`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
  process.exit(1);
});
