import { describe, expect, it } from 'vitest';
import { FakeDialog, FakeUpdater, recordingLog } from './testing/fake-electron';
import { packageManagerHint, setupAutoUpdates, UPDATE_INTERVAL_MS, updateRoute, type UpdateRoute } from './updater';

function harness(route: UpdateRoute, options: { failToLoad?: boolean } = {}) {
  const timeline: string[] = [];
  const updater = new FakeUpdater(timeline);
  const dialog = new FakeDialog();
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
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
    setInterval: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearInterval: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  return { handle, updater, dialog, timers, timeline, log, created: () => created };
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
