import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreBackup, startServer, type RunningServer, type StartServerOptions } from '../server';
import { openDatabase } from '../server/platform/db/knex';
import { MIGRATIONS, type MigrationList } from '../server/platform/db/migrations';
import { lanAddresses } from '../server/lan';
import { dumpDatabase, dumpDatabaseAt } from '../test/helpers/database-dump';
import { httpsGet } from '../test/helpers/https-get';
import type { LanStatus } from '../server/contracts/lan';
import { IPC } from './ipc-channels';
import type { MenuItemOptions } from './facade';
import { applicationMenu, runShell, type ShellDeps } from './shell';
import { FakeApp, FakeClipboard, FakeDialog, FakeSession, FakeShell, FakeTray, FakeUpdater, FakeUtilityProcessModule, FakeWebContents, FakeWindow, recordingLog } from './testing/fake-electron';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const OFF: LanStatus = { enabled: false, listening: false, port: 8765, addresses: [], urls: [], warnings: [], error: null };

/** A stand-in service that records when it starts and stops. */
function fakeStartServer(timeline: string[], calls: StartServerOptions[], lanStatus: () => LanStatus = () => OFF) {
  return async (options: StartServerOptions): Promise<RunningServer> => {
    calls.push(options);
    timeline.push('server:start');
    const port = options.port || 40000 + calls.length;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      host: '127.0.0.1',
      dataDir: options.dataDir ?? '',
      services: {
        lan: { status: async () => lanStatus(), update: async () => lanStatus(), onChange: () => () => undefined },
        desktop: { handover: { issue: async () => 'one-time-code' } },
        offline: { status: async () => ({ offline: options.env?.PARLEY_OFFLINE === '1' }) },
      },
      close: async () => {
        timeline.push('server:close');
        await new Promise((resolve) => setTimeout(resolve, 20));
        timeline.push('server:closed');
      },
    } as unknown as RunningServer;
  };
}

function harness(overrides: Partial<ShellDeps> & { hasLock?: boolean; userData?: string; isPackaged?: boolean } = {}) {
  const timeline: string[] = [];
  const calls: StartServerOptions[] = [];
  const userData = overrides.userData ?? mkdtempSync(path.join(os.tmpdir(), 'parley-shell-'));
  if (!overrides.userData) dirs.push(userData);
  const app = new FakeApp(userData, timeline);
  app.hasLock = overrides.hasLock ?? true;
  app.isPackaged = overrides.isPackaged ?? false;
  const windows: FakeWindow[] = [];
  const tray = new FakeTray();
  const dialog = new FakeDialog();
  const shell = new FakeShell();
  const clipboard = new FakeClipboard();
  const session = new FakeSession();
  const updater = new FakeUpdater(timeline);
  const ipcHandlers = new Map<string, unknown>();
  const log = recordingLog();
  const deps: ShellDeps = {
    app,
    platform: 'linux',
    env: {},
    log,
    startServer: fakeStartServer(timeline, calls),
    createWindow: (options) => {
      const win = new FakeWindow(options, timeline);
      windows.push(win);
      timeline.push('window:create');
      return win;
    },
    workAreas: () => [{ x: 0, y: 0, width: 1920, height: 1080 }],
    session: () => session,
    shell,
    dialog,
    clipboard,
    ipc: { handle: (channel, handler) => void ipcHandlers.set(channel, handler) },
    createTray: () => tray,
    buildMenu: (items) => items,
    qrImage: async (url) => `qr:${url}`,
    updater: () => updater,
    preloadPath: '/app/dist/main/preload.cjs',
    restoreBackup: async () => {
      throw new Error('no restore expected');
    },
    ...overrides,
  };
  const { ready } = runShell(deps);
  return { app, timeline, calls, windows, tray, dialog, shell, clipboard, session, updater, ipcHandlers, log, ready, userData };
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('desktop shell lifecycle', () => {
  it('starts the service on loopback in the user-data folder, then opens the window on it', async () => {
    const h = harness();
    const runtime = await h.ready;
    expect(h.calls).toEqual([{ host: '127.0.0.1', port: 0, dataDir: path.join(h.userData, 'data'), secretStore: 'auto', ownsProcess: true, desktopOwner: 'Owner' }]);
    // The owner is signed in through a one-time handover, never a sign-in form.
    expect(h.timeline.slice(0, 3)).toEqual(['server:start', 'window:create', `window:load ${runtime?.server.url}/auths/desktop-handover?code=one-time-code`]);
    expect(h.windows[0]?.visible).toBe(true);
    expect(h.windows[0]?.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: '/app/dist/main/preload.cjs' });
    expect([...h.ipcHandlers.keys()].sort()).toEqual([IPC.appVersion, IPC.lanSharing, IPC.openExternal, IPC.language, IPC.notify].sort());
    expect(h.session.requestHandler).toBeDefined();
    expect(h.tray.menu.length).toBeGreaterThan(0);
  });

  it('starts the service\'s helper processes (built-in model runtime) as utility processes, never with ELECTRON_RUN_AS_NODE', async () => {
    const utility = new FakeUtilityProcessModule();
    const h = harness({ utilityProcess: utility });
    await h.ready;
    const startProcess = h.calls[0]?.startProcess;
    expect(startProcess).toBeDefined();
    const channel = startProcess!({ file: '/app/dist/server/builtin/runtime/llama-runtime.worker.js', execArgv: [], env: { ELECTRON_RUN_AS_NODE: '1' }, name: 'Parley model runtime' });
    expect(utility.started.map((child) => child.modulePath)).toEqual(['/app/dist/server/builtin/runtime/llama-runtime.worker.js']);
    expect(utility.started[0]?.options.env).toEqual({});
    channel.kill();
  });

  it('speaks the OS language at first, then the language the window reports, and remembers it for the next start', async () => {
    let menu: Array<{ label?: string }> = [];
    const h = harness({ preferredLanguages: () => ['de-DE'], setApplicationMenu: (built) => void (menu = built as typeof menu) });
    const runtime = await h.ready;
    await until(() => h.tray.menu.length > 0);
    expect(h.tray.menu.map((i) => i.label).filter(Boolean)).toContain('Parley beenden');
    expect(menu.map((i) => i.label).filter(Boolean)).toEqual(['Datei', 'Ansicht']);

    const origin = new URL(runtime!.server.url).origin;
    const setLanguage = h.ipcHandlers.get(IPC.language) as (event: { senderFrame: { url: string } }, code: unknown) => unknown;
    setLanguage({ senderFrame: { url: `${origin}/` } }, 'en');
    await until(() => h.tray.menu.some((i) => i.label === 'Quit Parley'));
    expect(menu.map((i) => i.label).filter(Boolean)).toEqual(['File', 'View']);
    h.app.quit();
    await until(() => h.app.quitted);

    const again = harness({ userData: h.userData, preferredLanguages: () => ['de-DE'] });
    await again.ready;
    await until(() => again.tray.menu.length > 0);
    expect(again.tray.menu.map((i) => i.label).filter(Boolean)).toContain('Quit Parley');
  });

  it('asks for the OS keychain on macOS', async () => {
    const h = harness({ platform: 'darwin' });
    await h.ready;
    expect(h.calls[0]?.secretStore).toBe('keychain');
  });

  it('a second launch quits at once without starting another service', async () => {
    const h = harness({ hasLock: false });
    expect(await h.ready).toBeUndefined();
    expect(h.calls).toEqual([]);
    expect(h.app.quitted).toBe(true);
  });

  it('a second launch brings the open window to the front', async () => {
    const h = harness();
    await h.ready;
    const win = h.windows[0]!;
    win.minimized = true;
    h.app.emit('second-instance');
    expect(win).toMatchObject({ minimized: false, visible: true });
    expect(win.focused).toBe(1);
    expect(h.windows).toHaveLength(1);
  });

  it('shows a mention the window reports as a system notification; clicking it brings the window to that channel', async () => {
    const shown: Array<{ title: string; body: string; click?: () => void }> = [];
    const h = harness({
      createNotification: (options) => {
        const entry: { title: string; body: string; click?: () => void } = { ...options };
        return { show: () => void shown.push(entry), on: (_event, listener) => void (entry.click = listener) };
      },
    });
    const runtime = await h.ready;
    const win = h.windows[0]!;
    const notify = h.ipcHandlers.get(IPC.notify) as (event: unknown, notice: unknown) => unknown;
    await notify({ senderFrame: { url: `${runtime?.server.url}/` } }, { kind: 'channel-mention', channel_id: 'c-9', channel_name: 'launch', author: 'Ann', preview: 'ready?', everyone: false });
    expect(shown).toEqual([expect.objectContaining({ title: 'Ann mentioned you in #launch', body: 'ready?' })]);
    win.minimized = true;
    shown[0]!.click!();
    expect(win.minimized).toBe(false);
    expect(win.webContents.sent).toContainEqual({ channel: IPC.openPath, args: ['/channels/c-9'] });
  });

  it('reopens a window on the running service when the closed one is asked for again', async () => {
    const h = harness({ platform: 'darwin' });
    const runtime = await h.ready;
    h.windows[0]!.close();
    h.app.emit('window-all-closed');
    expect(h.app.quitted).toBe(false);
    h.app.emit('activate');
    expect(h.windows).toHaveLength(2);
    await until(() => h.windows[1]!.loaded.length > 0);
    expect(h.windows[1]?.loaded).toEqual([`${runtime?.server.url}/auths/desktop-handover?code=one-time-code`]);
    expect(h.calls).toHaveLength(1);
  });

  it('keeps Parley\'s data in userData/data and moves data an earlier version kept in userData there once', async () => {
    const userData = mkdtempSync(path.join(os.tmpdir(), 'parley-shell-'));
    dirs.push(userData);
    writeFileSync(path.join(userData, 'parley.db'), 'old database');
    writeFileSync(path.join(userData, 'Cookies'), 'chromium profile');
    const h = harness({ userData });
    await h.ready;
    expect(readFileSync(path.join(userData, 'data', 'parley.db'), 'utf8')).toBe('old database');
    expect(existsSync(path.join(userData, 'parley.db'))).toBe(false);
    expect(existsSync(path.join(userData, 'Cookies'))).toBe(true);
  });

  it('offers a retry when the keychain is locked at start, and starts once it is unlocked', async () => {
    let attempts = 0;
    const timeline: string[] = [];
    const inner = fakeStartServer(timeline, []);
    const h = harness({
      platform: 'darwin',
      startServer: async (options) => {
        attempts += 1;
        if (attempts === 1) throw new Error('The OS keychain is not available: User interaction is not allowed.');
        return inner(options);
      },
    });
    h.dialog.answer = 0; // "Try again"
    const runtime = await h.ready;
    expect(runtime).toBeDefined();
    expect(attempts).toBe(2);
    expect(h.dialog.boxes[0]).toMatchObject({ message: 'Parley cannot open its keys in the system keychain', buttons: ['Try again', 'Quit'] });
    expect(h.app.exitCode).toBeUndefined();

    const quitting = harness({
      platform: 'win32',
      startServer: async () => {
        throw new Error('The OS keychain is not available: locked');
      },
    });
    quitting.dialog.answer = 1; // "Quit"
    expect(await quitting.ready).toBeUndefined();
    expect(quitting.app.exitCode).toBe(1);
    expect(quitting.dialog.errors).toEqual([]);
  });

  it('closes the service when Windows ends the session (shutdown, log-off)', async () => {
    const h = harness({ platform: 'win32' });
    await h.ready;
    h.windows[0]!.emit('session-end');
    await until(() => h.timeline.includes('server:closed'));
  });

  it('has developer tools and reload only when running from source, and a minimal menu', async () => {
    const packaged = harness({ isPackaged: true });
    await packaged.ready;
    expect(packaged.windows[0]?.options.webPreferences.devTools).toBe(false);
    const source = harness({ isPackaged: false });
    await source.ready;
    expect(source.windows[0]?.options.webPreferences.devTools).toBe(true);

    const roles = (items: MenuItemOptions[]): string[] => items.flatMap((i) => [i.role ?? i.label ?? '', ...roles(i.submenu ?? [])]);
    expect(roles(applicationMenu('win32', false))).not.toContain('toggleDevTools');
    expect(roles(applicationMenu('win32', false))).not.toContain('reload');
    expect(roles(applicationMenu('win32', true))).toContain('toggleDevTools');
    expect(applicationMenu('darwin', false)[0]?.role).toBe('appMenu');
  });

  it('closes the service completely before the app ends on quit', async () => {
    const h = harness();
    await h.ready;
    h.app.quit();
    expect(h.app.quitted).toBe(false);
    await until(() => h.app.quitted);
    expect(h.timeline.slice(-3)).toEqual(['server:close', 'server:closed', 'app:quit']);
    expect(h.tray.destroyed).toBe(true);
  });

  it('a quit during start-up waits for the service and closes it without opening a window', async () => {
    const h = harness();
    h.app.quit();
    await until(() => h.app.quitted);
    expect(h.timeline).toEqual(['server:start', 'server:close', 'server:closed', 'app:quit']);
    expect(h.windows).toHaveLength(0);
  });

  it('closing the last window quits, except while sharing on the LAN', async () => {
    const h = harness();
    await h.ready;
    h.windows[0]!.close();
    h.app.emit('window-all-closed');
    await until(() => h.app.quitted);

    const sharing: LanStatus = { ...OFF, enabled: true, listening: true };
    const timeline: string[] = [];
    const h2 = harness({ startServer: fakeStartServer(timeline, [], () => sharing) });
    await h2.ready;
    h2.windows[0]!.close();
    h2.app.emit('window-all-closed');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(h2.app.quitted).toBe(false);
    expect(h2.log.lines.join('\n')).toContain('keeps sharing');
  });

  it('shows why the service could not start and exits with an error code', async () => {
    const h = harness({
      startServer: async () => {
        throw new Error('The OS keychain is not available: no Secret Service');
      },
    });
    expect(await h.ready).toBeUndefined();
    expect(h.dialog.errors).toEqual([{ title: 'Parley could not start', content: 'The OS keychain is not available: no Secret Service' }]);
    expect(h.app.exitCode).toBe(1);
    expect(h.windows).toHaveLength(0);
  });

  it('guards every web page the app creates', async () => {
    const h = harness();
    const runtime = await h.ready;
    const contents = new FakeWebContents();
    h.app.emit('web-contents-created', { preventDefault: () => undefined }, contents);
    expect(contents.navigate(`${runtime?.server.url}/c/1`)).toBe(false);
    expect(contents.navigate('https://example.com/')).toBe(true);
    expect(h.shell.opened).toEqual(['https://example.com/']);
  });

  it('remembers the window place and the port for the next run', async () => {
    const h = harness();
    const runtime = await h.ready;
    const win = h.windows[0]!;
    win.bounds = { x: 300, y: 200, width: 1000, height: 700 };
    win.maximized = true;
    win.close();
    const saved = JSON.parse(readFileSync(path.join(h.userData, 'shell-state.json'), 'utf8'));
    expect(saved).toEqual({ port: runtime?.server.port, window: { bounds: { x: 300, y: 200, width: 1000, height: 700 }, maximized: true } });

    const next = harness({ userData: h.userData });
    await next.ready;
    expect(next.calls[0]?.port).toBe(runtime?.server.port);
    expect(next.windows[0]?.options).toMatchObject({ x: 300, y: 200, width: 1000, height: 700 });
    expect(next.windows[0]?.maximized).toBe(true);
  });

  it('keeps the updater off when running from source, and checks for updates when packaged', async () => {
    const dev = harness();
    expect((await dev.ready)?.updatesEnabled).toBe(false);
    expect(dev.updater.checks).toBe(0);
    const packaged = harness({ isPackaged: true, env: { APPIMAGE: '/home/ada/Parley.AppImage' } });
    expect((await packaged.ready)?.updatesEnabled).toBe(true);
    await until(() => packaged.updater.checks === 1);
    // A deb install is updated by the package manager: the app only checks, never installs.
    const deb = harness({ isPackaged: true, packageType: () => 'deb' });
    expect((await deb.ready)?.updatesEnabled).toBe(true);
    await until(() => deb.updater.checks === 1);
    expect(deb.updater.autoDownload).toBe(false);
    deb.app.quit();
    await until(() => deb.app.quitted);
    packaged.app.quit();
    await until(() => packaged.app.quitted);
  });

  it('turns start at login on and off from the tray on Windows', async () => {
    const h = harness({ platform: 'win32' });
    await h.ready;
    h.tray.click('Start at login');
    expect(h.app.loginItem.openAtLogin).toBe(true);
    await until(() => h.tray.menu.find((i) => i.label === 'Start at login')?.checked === true);
  });
});

describe('desktop shell with the real service', () => {
  it('has the desktop owner before the port accepts anyone: a local account signing up first gets no admin, and the window opens as the owner', async () => {
    let intruder: { status: number; role?: string } | undefined;
    const h = harness({
      ownerName: 'Grace',
      startServer: async (options) => {
        const running = await startServer({ ...options, ownsProcess: false, logLevel: 'silent', logToStdout: false, env: {}, rendererDir: path.join(os.tmpdir(), 'parley-no-renderer') });
        // Another OS account on this machine signs up the moment the port answers, before the window exists.
        const res = await fetch(`${running.url}/api/v1/auths/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Mallory', email: 'mallory@example.com', password: 'mallory-password' }) });
        intruder = { status: res.status, role: ((await res.json()) as { role?: string }).role };
        return running;
      },
      env: { PARLEY_SECRET_STORE: 'file' },
    });
    const runtime = await h.ready;
    expect(intruder).toEqual({ status: 200, role: 'pending' });
    await until(() => (h.windows[0]?.loaded.length ?? 0) > 0);
    const handover = h.windows[0]!.loaded[0]!;
    expect(handover).toMatch(/\/auths\/desktop-handover\?code=/);
    const handed = await fetch(handover, { redirect: 'manual' });
    const cookie = (handed.headers.get('set-cookie') ?? '').split(';')[0]!;
    const me = (await (await fetch(`${runtime!.server.url}/api/v1/auths`, { headers: { cookie } })).json()) as { name: string; role: string };
    expect(me).toMatchObject({ name: 'Grace', role: 'admin' });
    h.tray.click('Quit Parley');
    await until(() => h.app.quitted);
  });

  it('shares on the LAN from the tray: reachable on the LAN address only while on, closed on quit', async () => {
    const dataDirs: string[] = [];
    const h = harness({
      startServer: (options) => {
        if (options.dataDir) dataDirs.push(options.dataDir);
        return startServer({ ...options, ownsProcess: false, logLevel: 'silent', logToStdout: false, env: {}, rendererDir: path.join(os.tmpdir(), 'parley-no-renderer') });
      },
      env: { PARLEY_SECRET_STORE: 'file' },
    });
    const runtime = await h.ready;
    expect(runtime).toBeDefined();
    const server = runtime!.server;
    expect(dataDirs).toEqual([path.join(h.userData, 'data')]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);

    // A free port for the LAN listener, so parallel test runs do not fight over 8765.
    const probe = (await import('node:net')).createServer();
    await new Promise<void>((resolve) => probe.listen(0, '0.0.0.0', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await server.services.lan.update({ port });

    const host = lanAddresses()[0] ?? '127.0.0.1';
    // LAN sharing needs an admin account, and serves HTTPS with its own certificate.
    const signup = await fetch(`${server.url}/api/v1/auths/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Owner', email: 'owner@example.com', password: 'correct horse battery' }) });
    expect(signup.status).toBe(200);
    const reach = () => httpsGet(`https://${host}:${port}/health`).then((r) => r.status, (e: NodeJS.ErrnoException) => e.code);
    expect(await reach()).toBe('ECONNREFUSED');

    // The desktop owner (created by the window's handover, without a password) sets one first:
    // the tray opens the LAN settings in the window instead of sharing.
    h.tray.click('Share on local network');
    await until(() => h.dialog.boxes.some((b) => b.title === 'Set a password first'));
    await until(() => h.windows[0]!.loaded.includes(`${server.url}/admin/lan`));
    expect((await server.services.lan.status()).enabled).toBe(false);
    const code = await server.services.desktop.handover.issue('Owner');
    const handed = await fetch(`${server.url}/auths/desktop-handover?code=${code}`, { redirect: 'manual' });
    const cookie = (handed.headers.get('set-cookie') ?? '').split(';')[0]!;
    const setPassword = await fetch(`${server.url}/api/v1/auths/update/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ password: '', new_password: 'owner-password-1' }),
    });
    expect(setPassword.status).toBe(200);

    h.tray.click('Share on local network');
    await until(() => h.tray.menu.find((i) => i.label === 'Share on local network')?.checked === true);
    expect(await reach()).toBe(200);
    // The warning box follows the menu's tick (the status is read once sharing has started).
    await until(() => h.dialog.boxes.some((b) => b.detail?.includes('Sign-up is open')));
    const win = h.windows[0]!;
    await until(() => win.webContents.sent.some((m) => m.channel === IPC.lanSharingChanged));
    const lanIp = lanAddresses()[0];
    if (lanIp) {
      h.tray.click('Copy LAN address');
      await until(() => h.clipboard.text !== '');
      expect(h.clipboard.text).toBe(`https://${lanIp}:${port}`);
    }

    h.tray.click('Share on local network');
    await until(() => h.tray.menu.find((i) => i.label === 'Share on local network')?.checked === false);
    expect(await reach()).toBe('ECONNREFUSED');

    h.tray.click('Quit Parley');
    await until(() => h.app.quitted);
    expect(await fetch(`${server.url}/health`).then((r) => r.status, () => 'closed')).toBe('closed');
  });
});

describe('desktop shell offline', () => {
  it('on Linux (and Windows) turns spell checking off (Chromium would download its dictionaries), and checks no update', async () => {
    const start = (offline: boolean) =>
      harness({
        isPackaged: true,
        env: { APPIMAGE: '/tmp/Parley.AppImage', PARLEY_SECRET_STORE: 'file' },
        startServer: (options) => startServer({ ...options, logLevel: 'silent', logToStdout: false, env: offline ? { PARLEY_OFFLINE: '1' } : {}, rendererDir: path.join(os.tmpdir(), 'parley-no-renderer') }),
      });
    const online = start(false);
    await online.ready;
    await until(() => online.updater.checks === 1);
    expect(online.session.spellChecker).toBe(true);
    online.app.quit();
    await until(() => online.app.quitted);

    const offline = start(true);
    await offline.ready;
    await until(() => offline.log.lines.some((l) => l.includes('update check skipped: Parley is offline')));
    expect(offline.session.spellChecker).toBe(false);
    expect(offline.updater.checks).toBe(0);
    offline.app.quit();
    await until(() => offline.app.quitted);
  });
});

describe('desktop shell when the database update fails', () => {
  const quiet = { logLevel: 'silent', logToStdout: false, env: {}, rendererDir: path.join(os.tmpdir(), 'parley-no-renderer') } as const;
  const failing: MigrationList = [
    ...MIGRATIONS,
    [
      '209901010000-breaks-halfway',
      {
        up: async (knex) => {
          await knex('chats').update({ title: 'changed by a failed update' });
          throw new Error('the disk is full');
        },
        down: async () => undefined,
      },
    ],
  ];

  /** The data of "the previous version": a user-data folder whose database lacks the newest migration, with one chat. */
  async function previousVersionData(): Promise<string> {
    const userData = mkdtempSync(path.join(os.tmpdir(), 'parley-shell-upgrade-'));
    dirs.push(userData);
    const server = await startServer({ ...quiet, port: 0, dataDir: path.join(userData, 'data'), secretStore: 'file', migrations: MIGRATIONS.slice(0, -1) });
    try {
      const post = (url: string, body: unknown, token?: string) =>
        fetch(`${server.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      const admin = (await (await post('/api/v1/auths/signup', { name: 'Owner', email: 'owner@example.com', password: 'owner-password-1' })).json()) as { token: string };
      expect((await post('/api/v1/chats/new', { title: 'Before the update' }, admin.token)).status).toBe(200);
    } finally {
      await server.close();
    }
    return userData;
  }

  async function chatTitles(dataDir: string): Promise<string[]> {
    const db = openDatabase(dataDir);
    try {
      return (await db('chats').select('title')).map((c: { title: string }) => c.title);
    } finally {
      await db.destroy();
    }
  }

  it('offers "Restore the backup taken before the update" and restores it into the data dir', async () => {
    const userData = await previousVersionData();
    const h = harness({
      userData,
      startServer: (options) => startServer({ ...options, ...quiet, migrations: failing }),
      env: { PARLEY_SECRET_STORE: 'file' },
      restoreBackup: (archive, dataDir) => restoreBackup({ archive, dataDir, force: true }),
    });
    expect(await h.ready).toBeUndefined();
    expect(h.app.exitCode).toBe(1);
    expect(h.windows).toHaveLength(0);
    const [ask, done] = h.dialog.boxes;
    expect(ask).toMatchObject({ message: 'Parley could not update its data', buttons: ['Restore the backup taken before the update', 'Quit'], cancelId: 1 });
    expect(ask?.detail).toContain('migration 209901010000-breaks-halfway failed: the disk is full');
    expect(ask?.detail).toContain('Nothing was changed');
    expect(done).toMatchObject({ message: 'The backup taken before the update is restored' });
    // The data dir now holds the snapshot; the data of the failed start is kept beside it.
    const dataDir = path.join(userData, 'data');
    expect(await chatTitles(dataDir)).toEqual(['Before the update']);
    const previous = readdirSync(userData).find((n) => n.startsWith('data.before-restore-'));
    expect(previous).toBeDefined();
    expect(done?.detail).toContain(path.join(userData, previous!));
    // The secret store stays with the data (a backup does not carry it): the restored data dir starts.
    expect(existsSync(path.join(dataDir, 'secrets.enc'))).toBe(true);
    const again = await startServer({ ...quiet, port: 0, dataDir, secretStore: 'file' });
    await again.close();
  });

  it('quits without touching the data when the person chooses Quit', async () => {
    const userData = await previousVersionData();
    const h = harness({
      userData,
      startServer: (options) => startServer({ ...options, ...quiet, migrations: failing }),
      env: { PARLEY_SECRET_STORE: 'file' },
    });
    h.dialog.answer = 1;
    expect(await h.ready).toBeUndefined();
    expect(h.dialog.boxes).toHaveLength(1);
    expect(h.app.exitCode).toBe(1);
    expect(readdirSync(userData).filter((n) => n.startsWith('data.before-restore-'))).toEqual([]);
    expect(await chatTitles(path.join(userData, 'data'))).toEqual(['Before the update']);
  });

  it("explains a newer Parley's data and quits", async () => {
    const userData = await previousVersionData();
    const db = openDatabase(path.join(userData, 'data'));
    await db('knex_migrations').insert({ name: '209912312359-future-change', batch: 99, migration_time: new Date() });
    await db.destroy();
    const h = harness({ userData, startServer: (options) => startServer({ ...options, ...quiet }), env: { PARLEY_SECRET_STORE: 'file' } });
    expect(await h.ready).toBeUndefined();
    expect(h.dialog.errors[0]?.title).toBe('Parley cannot open this data');
    expect(h.dialog.errors[0]?.content).toContain('was written by a newer Parley');
    expect(h.app.exitCode).toBe(1);
  });
});

describe('desktop shell updating itself', () => {
  /** Every file of a folder with its SHA-256, leaving out what a running service writes by itself (log, WAL, lock). */
  function filesOf(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (at: string) => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        const full = path.join(at, entry.name);
        const rel = path.relative(dir, full);
        if (entry.isDirectory()) walk(full);
        else if (!/^(logs\/|parley\.db(-wal|-shm)?$|parley\.lock$)/.test(rel)) out[rel] = createHash('sha256').update(readFileSync(full)).digest('hex');
      }
    };
    walk(dir);
    return out;
  }

  it('an update, downloaded and installed, leaves the data dir as it was', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'parley-home-'));
    dirs.push(home);
    const h = harness({
      isPackaged: true,
      homeDir: home,
      env: { APPIMAGE: path.join(home, 'Parley.AppImage'), PARLEY_SECRET_STORE: 'file' },
      startServer: (options) => startServer({ ...options, logLevel: 'silent', logToStdout: false, env: {}, rendererDir: path.join(os.tmpdir(), 'parley-no-renderer') }),
    });
    const runtime = await h.ready;
    expect(runtime?.updatesEnabled).toBe(true);
    const server = runtime!.server;
    // The window signed the owner in through the handover; the owner writes a chat.
    await until(() => (h.windows[0]?.loaded ?? []).some((url) => url.includes('/auths/desktop-handover')));
    const code = await server.services.desktop.handover.issue('Owner');
    const handed = await fetch(`${server.url}/auths/desktop-handover?code=${code}`, { redirect: 'manual' });
    const cookie = (handed.headers.get('set-cookie') ?? '').split(';')[0]!;
    const created = await fetch(`${server.url}/api/v1/chats/new`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: server.url }, body: JSON.stringify({ title: 'Kept' }) });
    expect(created.status).toBe(200);
    const dataDir = path.join(h.userData, 'data');
    await until(() => h.updater.checks === 1);
    const files = filesOf(dataDir);
    const database = await dumpDatabase(server.services.db);

    h.updater.emit('update-available', { version: '9.9.9' });
    h.updater.emit('update-downloaded', { version: '9.9.9' });
    await until(() => h.updater.installs === 1);
    expect(h.timeline.at(-1)).toBe('updater:install');
    // The service closed before the installer took over, and nothing of the update is in the data dir.
    expect(await fetch(`${server.url}/health`).then((r) => r.status, () => 'closed')).toBe('closed');
    expect(filesOf(dataDir)).toEqual(files);
    expect(await dumpDatabaseAt(dataDir)).toEqual(database);
    expect(h.log.lines.join('\n')).not.toContain('auto-update off');
  });
});
