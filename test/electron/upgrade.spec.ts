// Upgrading the desktop app for real: the previous release (PARLEY_PREVIOUS_APP, its executable,
// downloaded by the desktop workflow) fills a user-data folder, then the app just built
// (PARLEY_PACKAGED_APP or release/) starts on the same folder, as after an auto-update, and finds
// everything. Skipped, with the reason, without both apps (always on this machine: no Electron).
// Run with: npx playwright test -c playwright.electron.config.ts test/electron/upgrade.spec.ts
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import knexFactory from 'knex';
import { appFromExecutable, drivableCopy, findPackagedApp, type PackagedApp } from './packaged-app';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const found = findPackagedApp(process.env, path.join(root, 'release'));
const current: PackagedApp | undefined = 'app' in found ? found.app : undefined;
const previousExecutable = process.env.PARLEY_PREVIOUS_APP;
const previous = previousExecutable && existsSync(previousExecutable) ? appFromExecutable(previousExecutable, process.platform) : undefined;
const skipReason = !current
  ? ('reason' in found ? found.reason : 'no packaged app')
  : !previous
    ? `no previous release to upgrade from (PARLEY_PREVIOUS_APP=${previousExecutable ?? 'unset'}; the desktop workflow downloads the latest release's AppImage)`
    : '';
if (skipReason) process.stderr.write(`\nElectron upgrade test skipped: ${skipReason}\n\n`);

/** The file secret store (no keychain prompt on CI) and no update checks. */
const launchEnv = (): Record<string, string> => ({ ...(process.env as Record<string, string>), PARLEY_SECRET_STORE: 'file', PARLEY_DISABLE_UPDATES: '1' });

/** A request from the signed-in window (its session cookie). */
async function call(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(u, { method: m, credentials: 'same-origin', headers: b === null ? {} : { 'Content-Type': 'application/json' }, body: b === null ? undefined : JSON.stringify(b) });
      const text = await res.text();
      try {
        return { status: res.status, body: JSON.parse(text) as unknown };
      } catch {
        return { status: res.status, body: text as unknown };
      }
    },
    [method, url, body ?? null] as const,
  );
}

async function migrationsIn(dataDir: string): Promise<string[]> {
  const db = knexFactory({ client: 'sqlite3', connection: { filename: path.join(dataDir, 'parley.db') }, useNullAsDefault: true });
  try {
    return (await db('knex_migrations').orderBy('id').select<{ name: string }[]>('name')).map((r) => r.name);
  } finally {
    await db.destroy();
  }
}

test.describe('upgrading from the previous release', () => {
  test.skip(Boolean(skipReason), skipReason);
  test.describe.configure({ mode: 'serial' });

  let work = '';
  let userDataArg = '';
  let dataDir = '';
  let app: ElectronApplication | undefined;
  let page: Page;
  const made = { chat: '', knowledge: '', apiKey: '' };
  let migrationsBefore: string[] = [];

  async function launch(which: PackagedApp, into: string): Promise<void> {
    const drivable = await drivableCopy(which, path.join(work, into));
    app = await _electron.launch({ executablePath: drivable.executable, args: [userDataArg], env: launchEnv(), timeout: 120_000 });
    page = await app.firstWindow({ timeout: 120_000 });
    dataDir = path.join(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData')), 'data');
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\//, { timeout: 60_000 });
  }

  async function quit(): Promise<void> {
    const exited = new Promise<number | null>((resolve) => app!.process().once('exit', (code) => resolve(code)));
    await app!.evaluate(({ app: electronApp }) => electronApp.quit()).catch(() => undefined);
    expect(await exited).toBe(0);
    app = undefined;
  }

  test.beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'parley-upgrade-'));
    userDataArg = `--user-data-dir=${path.join(work, 'user-data')}`;
  });

  test.afterAll(async () => {
    await app?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the previous release starts on a new user-data folder and keeps a chat, a knowledge base and an API key', async () => {
    await launch(previous!, 'previous');
    const chat = await call(page, 'POST', '/api/v1/chats/new', { title: 'Written by the previous release' });
    expect(chat.status).toBe(200);
    made.chat = chat.body.id;
    expect((await call(page, 'POST', `/api/v1/chats/${made.chat}/messages`, { role: 'user', content: 'Where is the lighthouse key kept?' })).status).toBe(200);
    const upload = await page.evaluate(async () => {
      const form = new FormData();
      form.append('files', new Blob(['The lighthouse key hangs in the harbourmaster office, second hook.']), 'keys.txt');
      const res = await fetch('/api/v1/chats/attachment/upload', { method: 'POST', body: form, credentials: 'same-origin' });
      return (await res.json()) as Array<{ id: string }>;
    });
    const base = await call(page, 'POST', '/api/v1/knowledge/create', { name: 'Harbour', description: 'before the upgrade' });
    made.knowledge = base.body.id;
    expect((await call(page, 'POST', `/api/v1/knowledge/${made.knowledge}/file/add`, { file_id: upload[0]!.id })).status).toBe(200);
    await expect.poll(async () => ((await call(page, 'GET', `/api/v1/knowledge/${made.knowledge}`)).body.files as Array<{ status: string }>).map((f) => f.status), { timeout: 60_000 }).toEqual(['completed']);
    made.apiKey = (await call(page, 'POST', '/api/v1/auths/api_key')).body.api_key;
    expect(made.apiKey).toMatch(/^sk-/);
    await quit();
    migrationsBefore = await migrationsIn(dataDir);
  });

  test('the new build starts on the same folder (snapshot first when its database changes) and finds everything', async () => {
    await launch(current!, 'current');
    const chat = await call(page, 'GET', `/api/v1/chats/${made.chat}`);
    expect(chat.status).toBe(200);
    expect(chat.body.title).toBe('Written by the previous release');
    expect(chat.body.messages.map((m: { content: string }) => m.content)).toEqual(['Where is the lighthouse key kept?']);
    const hits = await call(page, 'POST', '/api/v1/retrieval/query/collection', { collection_names: [made.knowledge], query: 'lighthouse key', k: 1, relevance_threshold: 0 });
    expect(hits.body.documents[0][0]).toContain('second hook');
    expect((await call(page, 'GET', '/api/v1/auths/api_key')).body.api_key).toBe(made.apiKey);
    await quit();

    const after = await migrationsIn(dataDir);
    expect(after.slice(0, migrationsBefore.length)).toEqual(migrationsBefore);
    const snapshots = existsSync(path.join(dataDir, 'backups')) ? readdirSync(path.join(dataDir, 'backups')).filter((n) => n.startsWith('pre-')) : [];
    if (after.length > migrationsBefore.length) {
      expect(snapshots).toEqual([expect.stringMatching(new RegExp(`^pre-${migrationsBefore.at(-1)!.slice(0, 12)}-to-${after.at(-1)!.slice(0, 12)}-`))]);
      if (process.platform !== 'win32') expect(statSync(path.join(dataDir, 'backups', snapshots[0]!)).mode & 0o777).toBe(0o600);
    } else {
      expect(snapshots).toEqual([]);
    }
  });
});
