// The packaged desktop app, for real: Playwright's Electron support drives the app that
// electron-builder made (the desktop workflow runs this on Linux, macOS and Windows after
// packaging). Where no Electron binary exists (no download possible), every test is skipped
// with the reason. Run with: npx playwright test -c playwright.electron.config.ts
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { fileSecretStore } from '../../server/secrets/file-store';
import { keychainService } from '../../server/secrets/select-store';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { drivableCopy, findPackagedApp, readFuses, tamperedCopy, type PackagedApp } from './packaged-app';
import { SHIPPED_FUSES } from './shipped-fuses';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const found = findPackagedApp(process.env, path.join(root, 'release'));
const shipped: PackagedApp | undefined = 'app' in found ? found.app : undefined;
const skipReason = 'reason' in found ? found.reason : '';
// The list reporter shows skipped tests without their reason: say it once, where it is read.
if (!shipped) process.stderr.write(`\nElectron smoke test skipped: ${skipReason}\n\n`);

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  findCredentials(service: string): Promise<Array<{ account: string }>>;
  deletePassword(service: string, account: string): Promise<boolean>;
}
const keytar = () => createRequire(import.meta.url)('keytar') as Keytar;

/** The environment of a launch: the keychain for real (no silent fallback) unless told, no update checks. */
const launchEnv = (store: 'keychain' | 'file' = 'keychain'): Record<string, string> => ({ ...(process.env as Record<string, string>), PARLEY_SECRET_STORE: store, PARLEY_DISABLE_UPDATES: '1' });

/**
 * Whether the keychain holds `account` under `service`. On macOS the entry belongs to the Parley
 * app, and reading its secret from another program would raise an access prompt: `security`
 * reads only the entry's attributes there.
 */
async function keychainHas(service: string, account: string): Promise<boolean> {
  if (process.platform === 'darwin') return spawnSync('security', ['find-generic-password', '-s', service, '-a', account]).status === 0;
  return (await keytar().getPassword(service, account)) !== null;
}

/** Removes the test's keychain entries. */
async function forgetKeychain(service: string): Promise<void> {
  if (process.platform === 'darwin') {
    spawnSync('security', ['delete-generic-password', '-s', service, '-a', 'master-key']);
    return;
  }
  for (const entry of await keytar().findCredentials(service)) await keytar().deletePassword(service, entry.account);
}

/** Waits for a spawned app to end by itself; kills it (and its children) after `ms`. */
function endOf(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; killed: boolean }> {
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      killTree(child);
    }, ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killed });
    });
  });
}

function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F']);
  else {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
}

/** Runs `fn` in the signed-in window (its session cookie), answering status and parsed body. */
async function api(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(u, {
        method: m,
        credentials: 'same-origin',
        headers: b === null ? {} : { 'Content-Type': 'application/json' },
        body: b === null ? undefined : JSON.stringify(b),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      return { status: res.status, body: parsed };
    },
    [method, url, body ?? null] as const,
  );
}

test.describe('the packaged desktop app', () => {
  test.skip(!shipped, skipReason);
  test.describe.configure({ mode: 'serial' });

  let work = '';
  let drivable: PackagedApp;
  let userDataArg = '';
  let openai: FakeOpenAI;
  let electronApp: ElectronApplication | undefined;
  let page: Page;
  let userData = '';
  let origin = '';

  async function launch(): Promise<void> {
    electronApp = await _electron.launch({ executablePath: drivable.executable, args: [userDataArg], env: launchEnv(), timeout: 120_000 });
    page = await electronApp.firstWindow({ timeout: 120_000 });
    userData = await electronApp.evaluate(({ app }) => app.getPath('userData'));
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\//, { timeout: 60_000 });
    origin = new URL(page.url()).origin;
  }

  test.beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'parley-smoke-'));
    drivable = await drivableCopy(shipped!, path.join(work, 'drivable'));
    userDataArg = `--user-data-dir=${path.join(work, 'user-data')}`;
    openai = await startFakeOpenAI({ key: 'sk-smoke-test-key', models: ['fake-gpt'] });
  });

  test.afterAll(async () => {
    await electronApp?.close().catch(() => undefined);
    await openai?.close();
    const idFile = path.join(userData, 'data', 'install-id');
    if (userData && existsSync(idFile)) await forgetKeychain(keychainService(readFileSync(idFile, 'utf8').trim()));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('ships with the fuses set: no running as Node, no NODE_OPTIONS or --inspect, only the checked app.asar', async () => {
    expect(await readFuses(process.platform === 'darwin' ? shipped!.root : shipped!.executable)).toMatchObject(SHIPPED_FUSES);
    // The copy Playwright drives differs in the inspect fuse only.
    expect(await readFuses(process.platform === 'darwin' ? drivable.root : drivable.executable)).toMatchObject({ ...SHIPPED_FUSES, EnableNodeCliInspectArguments: true });
  });

  test('keeps Pyodide and the native modules beside app.asar, where they are read by path', () => {
    const unpacked = path.join(shipped!.resources, 'app.asar.unpacked', 'node_modules');
    expect(readdirSync(path.join(unpacked, 'pyodide')).some((f) => f.endsWith('.wasm'))).toBe(true);
    expect(existsSync(path.join(unpacked, 'sqlite3'))).toBe(true);
    expect(existsSync(path.join(unpacked, 'keytar'))).toBe(true);
  });

  test('starts, shows the setup screen from its in-process service, and /health answers', async () => {
    await launch();
    await expect(page.getByTestId('setup-screen')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('heading', { name: /Sign in|Welcome/ })).toHaveCount(0);
    const health = await fetch(`${origin}/health`);
    expect(health.status).toBe(200);
    // Parley's data sits in userData/data, this OS account's only.
    const dataDir = path.join(userData, 'data');
    expect(existsSync(path.join(dataDir, 'install-id'))).toBe(true);
    if (process.platform !== 'win32') expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  test("the window's page has a Content-Security-Policy and DevTools stay closed", async () => {
    const csp = await page.evaluate("fetch(location.href).then((r) => r.headers.get('content-security-policy'))");
    expect(String(csp)).toMatch(/default-src/);
    const devTools = await electronApp!.evaluate(async ({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows()[0]!;
      win.webContents.openDevTools();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return win.webContents.isDevToolsOpened();
    });
    expect(devTools).toBe(false);
  });

  test('a provider key saved from the setup screen lands in the OS keychain-keyed store, never in clear on disk', async () => {
    const compat = page.getByTestId('setup-option-compat');
    await compat.getByRole('button', { name: /OpenAI-compatible/ }).click();
    await compat.getByLabel('API address').fill(openai.url);
    await compat.getByLabel('API key').fill('sk-smoke-test-key');
    await compat.getByRole('button', { name: 'Connect and start chatting' }).click();
    await expect(page).toHaveURL(`${origin}/`, { timeout: 30_000 });

    const dataDir = path.join(userData, 'data');
    const service = keychainService(readFileSync(path.join(dataDir, 'install-id'), 'utf8').trim());
    expect(await keychainHas(service, 'master-key'), `no master key in the keychain under ${service}`).toBe(true);
    expect(readFileSync(path.join(dataDir, 'secret-store'), 'utf8')).toContain('keychain-key');
    expect(existsSync(path.join(dataDir, 'secrets.key'))).toBe(false);
    expect(readFileSync(path.join(dataDir, 'secrets.enc'), 'utf8')).not.toContain('sk-smoke-test-key');
    if (process.platform !== 'darwin') {
      // The keychain's key opens the secrets file, which holds the key typed on the setup screen.
      const store = fileSecretStore(dataDir, (await keytar().getPassword(service, 'master-key'))!);
      const values = await Promise.all((await store.list('')).map((name) => store.get(name)));
      expect(values.some((v) => v?.includes('sk-smoke-test-key'))).toBe(true);
    }
  });

  test('runs the Python tools, ingestion and graph workers from the packaged app', async () => {
    const source = 'class Tools:\n    def add(self, a: int, b: int) -> int:\n        """Add two whole numbers."""\n        return a + b\n';
    const tool = await api(page, 'POST', '/api/v1/tools/create', { name: 'Adder', type: 'python', config: { content: source } });
    expect(tool.status, JSON.stringify(tool.body)).toBe(200);
    expect(tool.body.specs.map((s: { name: string }) => s.name)).toEqual(['add']);

    const text = 'Project Falcon is a satellite imaging programme. The principal investigator of Project Falcon is Ingrid Holm, who works in Tromsø.';
    const upload = await page.evaluate(async (body) => {
      const form = new FormData();
      form.append('files', new Blob([body]), 'falcon.txt');
      const res = await fetch('/api/v1/chats/attachment/upload', { method: 'POST', body: form, credentials: 'same-origin' });
      return { status: res.status, body: (await res.json()) as Array<{ id: string }> };
    }, text);
    expect(upload.status).toBe(200);
    const base = await api(page, 'POST', '/api/knowledge/create', { name: 'Smoke', description: 'packaged app' });
    expect(base.status).toBe(200);
    const id = base.body.id as string;
    expect((await api(page, 'POST', `/api/knowledge/${id}/file/add`, { file_id: upload.body[0]!.id })).status).toBe(200);
    await expect
      .poll(async () => ((await api(page, 'GET', `/api/v1/knowledge/${id}`)).body.files as Array<{ status: string }>).map((f) => f.status), { timeout: 60_000 })
      .toEqual(['completed']);

    expect((await api(page, 'POST', `/api/knowledge/${id}/graph/toggle`, { enabled: true })).status).toBe(200);
    await expect.poll(async () => (await api(page, 'GET', `/api/v1/knowledge/${id}/graph/status`)).body.status, { timeout: 90_000 }).toBe('ready');
  });

  test('a second launch focuses the running window instead of starting again', async () => {
    await electronApp!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.hide());
    expect(await electronApp!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isVisible())).toBe(false);
    const second = spawn(drivable.executable, [userDataArg], { env: launchEnv(), stdio: 'ignore', detached: process.platform !== 'win32' });
    const ended = await endOf(second, 60_000);
    expect(ended.killed, 'the second instance kept running').toBe(false);
    await expect.poll(() => electronApp!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => w.isVisible()))).toEqual([true]);
  });

  test('quits cleanly, and the next launch finds the data', async () => {
    const exited = new Promise<number | null>((resolve) => electronApp!.process().once('exit', (code) => resolve(code)));
    // The answer may never come: the process ends while answering.
    await electronApp!.evaluate(({ app }) => app.quit()).catch(() => undefined);
    expect(await exited).toBe(0);
    electronApp = undefined;

    await launch();
    // Setup is done: straight to the app, with the provider's model.
    await expect(page).toHaveURL(`${origin}/`, { timeout: 60_000 });
    await expect(page.getByTestId('setup-screen')).toHaveCount(0);
    // The provider answers only with its key: listing its models shows the key came back from the keychain-keyed store.
    const models = await api(page, 'GET', '/api/models');
    expect(JSON.stringify(models.body)).toContain('fake-gpt');
    expect((await api(page, 'GET', '/api/knowledge')).body.map((k: { name: string }) => k.name)).toContain('Smoke');
    await electronApp!.close();
    electronApp = undefined;
  });

  test('ignores ELECTRON_RUN_AS_NODE: the shipped binary starts the app instead of running a script', async () => {
    const userDir = path.join(work, 'run-as-node');
    mkdirSync(userDir);
    const marker = path.join(work, 'ran-as-node');
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'node')`;
    const child = spawn(shipped!.executable, ['-e', script, `--user-data-dir=${userDir}`], {
      env: { ...launchEnv('file'), ELECTRON_RUN_AS_NODE: '1' },
      stdio: 'ignore',
      detached: process.platform !== 'win32',
    });
    // Run as Node, it would write the marker and exit at once; started as the app, it keeps
    // running and creates its data folder.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !existsSync(marker) && child.exitCode === null && !existsSync(path.join(userDir, 'data', 'install-id'))) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const stillRunning = child.exitCode === null;
    killTree(child);
    expect(existsSync(marker)).toBe(false);
    expect(stillRunning, 'the binary ended instead of running the app').toBe(true);
  });

  test('refuses to start with a tampered app.asar', async () => {
    const copy = tamperedCopy(shipped!, path.join(work, 'tampered'));
    const userDir = path.join(work, 'tampered-user-data');
    mkdirSync(userDir);
    const child = spawn(copy.executable, [`--user-data-dir=${userDir}`], { env: launchEnv('file'), stdio: 'ignore', detached: process.platform !== 'win32' });
    const ended = await endOf(child, 60_000);
    expect(ended.killed, 'the tampered app kept running').toBe(false);
    expect(ended.code === 0 && ended.signal === null, `exit code ${String(ended.code)}, signal ${String(ended.signal)}`).toBe(false);
    expect(existsSync(path.join(userDir, 'data'))).toBe(false);
  });
});
