import { describe, expect, it } from 'vitest';
import { FakeDialog, FakeUpdater, recordingLog } from './testing/fake-electron';
import { setupAutoUpdates, UPDATE_INTERVAL_MS, updatesAllowed } from './updater';

function harness(isPackaged: boolean, env: NodeJS.ProcessEnv = {}) {
  const timeline: string[] = [];
  const updater = new FakeUpdater(timeline);
  const dialog = new FakeDialog();
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  let created = 0;
  const handle = setupAutoUpdates({
    app: { isPackaged },
    updater: () => {
      created += 1;
      return updater;
    },
    dialog,
    log: recordingLog(),
    env,
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
  return { handle, updater, dialog, timers, timeline, created: () => created };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('auto-update', () => {
  it('is off when running from source, and never even loads the updater', () => {
    const { handle, created, updater } = harness(false);
    expect(handle.enabled).toBe(false);
    expect(created()).toBe(0);
    expect(updater.checks).toBe(0);
  });

  it('is off in development and when disabled by the environment', () => {
    expect(updatesAllowed({ isPackaged: true }, { NODE_ENV: 'development' }).allowed).toBe(false);
    expect(updatesAllowed({ isPackaged: true }, { PARLEY_DISABLE_UPDATES: '1' }).allowed).toBe(false);
    expect(harness(true, { NODE_ENV: 'development' }).created()).toBe(0);
  });

  it('checks at start and every few hours in a packaged app, downloading in the background', () => {
    const { handle, updater, timers } = harness(true);
    expect(handle.enabled).toBe(true);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
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
    const { updater, dialog, timeline } = harness(true);
    updater.emit('update-downloaded', { version: '2.0.0' });
    await settle();
    expect(dialog.boxes[0]?.message).toContain('2.0.0');
    expect(dialog.boxes[0]?.buttons).toEqual(['Restart now', 'Later']);
    expect(timeline).toEqual(['service:closed', 'updater:install']);
  });

  it('installs nothing now when the user picks Later', async () => {
    const { updater, dialog } = harness(true);
    dialog.answer = 1;
    updater.emit('update-downloaded', { version: '2.0.0' });
    await settle();
    expect(updater.installs).toBe(0);
  });

  it('keeps working when the update feed cannot be reached', () => {
    const { updater } = harness(true);
    expect(() => updater.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'))).not.toThrow();
  });
});
