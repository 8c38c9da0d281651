import { describe, expect, it } from 'vitest';
import { FakeDialog, FakeUpdater, recordingLog } from './testing/fake-electron';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import {
  foldersOverlap, INSTALL_TAKEOVER_MS, packageManagerHint, setupAutoUpdates, UPDATE_INTERVAL_MS, UPDATER_CACHE_DIR_NAME, updateCacheDir, updateRoute, type UpdateRoute,
} from './updater';

function harness(route: UpdateRoute, options: { failToLoad?: boolean; offline?: () => boolean } = {}) {
  const timeline: string[] = [];
  const updater = new FakeUpdater(timeline);
  const dialog = new FakeDialog();
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const timeouts: Array<{ fn: () => void; ms: number }> = [];
  const log = recordingLog();
  let created = 0;
  const handle = setupAutoUpdates({
    route,
    updater: async () => {
      created += 1;
      if (options.failToLoad) throw new Error('Cannot find module electron-updater');
      return updater;
    },
    dialog,
    log,
    beforeRestart: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      timeline.push('service:closed');
    },
    relaunch: () => timeline.push('app:relaunch'),
    ...(options.offline ? { allowed: async () => !options.offline!() } : {}),
    setTimeout: (fn, ms) => {
      const timeout = { fn, ms };
      timeouts.push(timeout);
      return timeout;
    },
    setInterval: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearInterval: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  return { handle, updater, dialog, timers, timeouts, timeline, log, created: () => created };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const none = () => undefined;

describe('which way an installation updates', () => {
  it('is off from source, in development and when disabled', () => {
    expect(updateRoute({ app: { isPackaged: false }, platform: 'win32', env: {}, packageType: none })).toMatchObject({ kind: 'off' });
    expect(updateRoute({ app: { isPackaged: true }, platform: 'win32', env: { NODE_ENV: 'development' }, packageType: none })).toMatchObject({ kind: 'off' });
    expect(updateRoute({ app: { isPackaged: true }, platform: 'darwin', env: { PARLEY_DISABLE_UPDATES: '1' }, packageType: none })).toMatchObject({ kind: 'off' });
  });

  it('updates in-app on Windows, macOS and from an AppImage', () => {
    expect(updateRoute({ app: { isPackaged: true }, platform: 'win32', env: {}, packageType: none })).toEqual({ kind: 'in-app' });
    expect(updateRoute({ app: { isPackaged: true }, platform: 'darwin', env: {}, packageType: none })).toEqual({ kind: 'in-app' });
    expect(updateRoute({ app: { isPackaged: true }, platform: 'linux', env: { APPIMAGE: '/home/ada/Parley.AppImage' }, packageType: none })).toEqual({ kind: 'in-app' });
  });

  it('leaves a deb (or rpm) install to the package manager, and an unpacked Linux build alone', () => {
    expect(updateRoute({ app: { isPackaged: true }, platform: 'linux', env: {}, packageType: () => 'deb\n' })).toEqual({ kind: 'package-manager', packageType: 'deb' });
    expect(updateRoute({ app: { isPackaged: true }, platform: 'linux', env: {}, packageType: () => 'rpm' })).toEqual({ kind: 'package-manager', packageType: 'rpm' });
    expect(updateRoute({ app: { isPackaged: true }, platform: 'linux', env: {}, packageType: none })).toMatchObject({ kind: 'off', reason: expect.stringMatching(/AppImage/) });
  });
});

describe('auto-update', () => {
  it('when off, never even loads the updater', async () => {
    const { handle, created, updater } = harness({ kind: 'off', reason: 'running from source (not packaged)' });
    await settle();
    expect(handle.enabled).toBe(false);
    expect(created()).toBe(0);
    expect(updater.checks).toBe(0);
  });

  it('checks at start and every few hours, downloading in the background, and never downgrades', async () => {
    const { handle, updater, timers } = harness({ kind: 'in-app' });
    expect(handle.enabled).toBe(true);
    await settle();
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(updater.allowDowngrade).toBe(false);
    expect(updater.checks).toBe(1);
    expect(timers).toHaveLength(1);
    expect(timers[0]?.ms).toBe(UPDATE_INTERVAL_MS);
    expect(UPDATE_INTERVAL_MS).toBeGreaterThanOrEqual(60 * 60 * 1000);
    timers[0]?.fn();
    await settle();
    expect(updater.checks).toBe(2);
    handle.stop();
    expect(timers[0]?.cleared).toBe(true);
  });

  it('asks before restarting, and closes the service before installing', async () => {
    const { updater, dialog, timeline } = harness({ kind: 'in-app' });
    await settle();
    updater.emit('update-downloaded', { version: '2.0.0' });
    await settle();
    expect(dialog.boxes[0]?.message).toContain('2.0.0');
    expect(dialog.boxes[0]?.buttons).toEqual(['Restart now', 'Later']);
    expect(timeline).toEqual(['service:closed', 'updater:install']);
  });

  it('installs nothing now when the user picks Later', async () => {
    const { updater, dialog } = harness({ kind: 'in-app' });
    await settle();
    dialog.answer = 1;
    updater.emit('update-downloaded', { version: '2.0.0' });
    await settle();
    expect(updater.installs).toBe(0);
  });

  it('for a deb install, downloads and installs nothing, and tells the user once per version to use the package manager', async () => {
    const { updater, dialog, timeline } = harness({ kind: 'package-manager', packageType: 'deb' });
    await settle();
    expect(updater.autoDownload).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updater.allowDowngrade).toBe(false);
    expect(updater.checks).toBe(1);
    updater.emit('update-available', { version: '2.0.0' });
    updater.emit('update-available', { version: '2.0.0' });
    updater.emit('update-downloaded', { version: '2.0.0' });
    await settle();
    expect(dialog.boxes).toHaveLength(1);
    expect(dialog.boxes[0]?.message).toBe('Parley 2.0.0 is available.');
    expect(dialog.boxes[0]?.detail).toMatch(/package manager.*sudo apt install/);
    expect(updater.installs).toBe(0);
    expect(timeline).toEqual([]);
    expect(packageManagerHint('rpm', '2.0.0')).toMatch(/dnf install/);
  });

  it('keeps working when the update feed cannot be reached or the updater cannot load', async () => {
    const { updater } = harness({ kind: 'in-app' });
    await settle();
    expect(() => updater.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'))).not.toThrow();
    const broken = harness({ kind: 'in-app' }, { failToLoad: true });
    await settle();
    expect(broken.log.lines.join('\n')).toMatch(/auto-update unavailable/);
  });
});

describe('offline', () => {
  it('PARLEY_OFFLINE turns update checks off before electron-updater is even loaded', () => {
    expect(updateRoute({ app: { isPackaged: true }, platform: 'win32', env: { PARLEY_OFFLINE: '1' }, packageType: none })).toMatchObject({ kind: 'off', reason: expect.stringMatching(/PARLEY_OFFLINE/) });
  });

  it('the admin switch skips each check while it is on, and checks again once it is off', async () => {
    let offline = true;
    const { updater, timers, log } = harness({ kind: 'in-app' }, { offline: () => offline });
    await settle();
    expect(updater.checks).toBe(0);
    expect(log.lines.join('\n')).toContain('update check skipped: Parley is offline');
    offline = false;
    timers[0]!.fn();
    await settle();
    expect(updater.checks).toBe(1);
  });
});

describe('a failed update', () => {
  async function restartNow(fail: 'throw' | 'error' | undefined) {
    const h = harness({ kind: 'in-app' });
    await settle();
    h.updater.failInstall = fail;
    h.updater.emit('update-downloaded', { version: '2.0.0' });
    await settle();
    return h;
  }

  it('starts this version again when the installer cannot start (electron-updater throws)', async () => {
    const { timeline, log } = await restartNow('throw');
    expect(timeline).toEqual(['service:closed', 'updater:install', 'app:relaunch']);
    expect(log.lines.join('\n')).toContain('the update did not install (spawn installer EACCES); starting this version again');
  });

  it('starts this version again when electron-updater reports the install failed', async () => {
    const { timeline } = await restartNow('error');
    expect(timeline).toEqual(['service:closed', 'updater:install', 'app:relaunch']);
  });

  it('starts this version again when the app is still running long after the installer was asked to take over, once', async () => {
    const { timeline, timeouts, updater } = await restartNow(undefined);
    expect(timeline).toEqual(['service:closed', 'updater:install']);
    expect(timeouts.map((t) => t.ms)).toEqual([INSTALL_TAKEOVER_MS]);
    timeouts[0]!.fn();
    updater.emit('error', new Error('late'));
    expect(timeline).toEqual(['service:closed', 'updater:install', 'app:relaunch']);
  });

  it('an update check that fails before anything was downloaded restarts nothing', async () => {
    const { timeline, updater } = harness({ kind: 'in-app' });
    await settle();
    updater.emit('error', new Error('sha512 checksum mismatch'));
    expect(timeline).toEqual([]);
  });
});

describe('an update never writes into the data', () => {
  it("downloads into electron-updater's cache folder, which is where our updateCacheDir says", () => {
    const { getAppCacheDir } = createRequire(import.meta.url)('electron-updater/out/AppAdapter.js') as { getAppCacheDir(): string };
    expect(updateCacheDir(process.platform, process.env, os.homedir())).toBe(path.join(getAppCacheDir(), UPDATER_CACHE_DIR_NAME));
    // electron-builder writes `${name}-updater` as app-update.yml's updaterCacheDirName.
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as { name: string };
    expect(UPDATER_CACHE_DIR_NAME).toBe(`${pkg.name}-updater`);
  });

  it('keeps that folder apart from the data dir on every OS', () => {
    const cases: Array<[NodeJS.Platform, NodeJS.ProcessEnv, string]> = [
      ['win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'C:\\Users\\ada'],
      ['darwin', {}, '/Users/ada'],
      ['linux', {}, '/home/ada'],
      ['linux', { XDG_CONFIG_HOME: '/home/ada/.config', XDG_CACHE_HOME: '/home/ada/.cache' }, '/home/ada'],
    ];
    for (const [platform, env, home] of cases) {
      // Electron's userData per OS (server/platform/paths appUserDataDir), then `data`.
      const dataDir =
        platform === 'win32'
          ? path.win32.join(env.APPDATA!, 'Parley', 'data')
          : platform === 'darwin'
            ? path.posix.join(home, 'Library', 'Application Support', 'Parley', 'data')
            : path.posix.join(env.XDG_CONFIG_HOME ?? `${home}/.config`, 'Parley', 'data');
      expect(foldersOverlap(updateCacheDir(platform, env, home), dataDir, platform), `${platform}: ${updateCacheDir(platform, env, home)} vs ${dataDir}`).toBe(false);
    }
  });

  it('turns updates off when the download folder would lie in the data (a cache pointed into it)', () => {
    const folders = { dataDir: '/home/ada/.config/Parley/data', updateCache: updateCacheDir('linux', { XDG_CACHE_HOME: '/home/ada/.config/Parley/data/cache' }, '/home/ada') };
    expect(updateRoute({ app: { isPackaged: true }, platform: 'linux', env: { APPIMAGE: '/x.AppImage' }, packageType: none, folders })).toMatchObject({ kind: 'off', reason: expect.stringMatching(/never writes into the data/) });
    expect(foldersOverlap('C:\\Users\\Ada\\AppData\\Roaming\\Parley\\data', 'c:\\users\\ada\\appdata\\roaming\\parley', 'win32')).toBe(true);
    expect(foldersOverlap('/home/ada/.cache/parley-updater', '/home/ada/.cache/parley', 'linux')).toBe(false);
  });

  it("the Windows installer keeps the data when it replaces the app (electron-builder's deleteAppDataOnUninstall stays off)", () => {
    const config = yaml.load(readFileSync(path.resolve(import.meta.dirname, '../electron-builder.yml'), 'utf8')) as { nsis?: { deleteAppDataOnUninstall?: boolean } };
    expect(config.nsis?.deleteAppDataOnUninstall ?? false).toBe(false);
  });
});
