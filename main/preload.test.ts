import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC } from './ipc-channels';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (...args: unknown[]) => args);
const listeners = new Map<string, Set<(...args: unknown[]) => void>>();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void (exposed[key] = api) },
  ipcRenderer: {
    invoke,
    on: (channel: string, fn: (...args: unknown[]) => void) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(fn)),
    removeListener: (channel: string, fn: (...args: unknown[]) => void) => listeners.get(channel)?.delete(fn),
  },
}));

describe('preload bridge', () => {
  beforeEach(async () => {
    await import('./preload');
  });

  it('exposes only window.parley with seven functions, never ipcRenderer itself', () => {
    expect(Object.keys(exposed)).toEqual(['parley']);
    const api = exposed.parley as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['appVersion', 'lanSharing', 'notify', 'onLanSharingChange', 'onOpenPath', 'openExternal', 'setLanguage']);
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
  });

  it('forwards calls to the matching main-process channels', async () => {
    const api = exposed.parley as { appVersion(): Promise<unknown>; lanSharing(): Promise<unknown>; openExternal(url: unknown): Promise<unknown>; setLanguage(code: unknown): Promise<unknown> };
    expect(await api.appVersion()).toEqual([IPC.appVersion]);
    expect(await api.lanSharing()).toEqual([IPC.lanSharing]);
    expect(await api.openExternal({ toString: () => 'https://example.com/' })).toEqual([IPC.openExternal, 'https://example.com/']);
    expect(await api.setLanguage('de')).toEqual([IPC.language, 'de']);
    const notify = (exposed.parley as { notify(n: unknown): Promise<unknown> }).notify;
    expect(await notify({ kind: 'channel-mention' })).toEqual([IPC.notify, { kind: 'channel-mention' }]);
  });

  it('delivers paths to open (a clicked notification) until unsubscribed', () => {
    const api = exposed.parley as { onOpenPath(fn: (path: string) => void): () => void };
    const seen: string[] = [];
    const off = api.onOpenPath((path) => seen.push(path));
    for (const fn of listeners.get(IPC.openPath) ?? []) fn({ sender: 'x' }, '/channels/c-1');
    off();
    for (const fn of listeners.get(IPC.openPath) ?? []) fn({ sender: 'x' }, '/channels/c-2');
    expect(seen).toEqual(['/channels/c-1']);
  });

  it('delivers LAN sharing changes until unsubscribed', () => {
    const api = exposed.parley as { onLanSharingChange(fn: (state: unknown) => void): () => void };
    const seen: unknown[] = [];
    const off = api.onLanSharingChange((state) => seen.push(state));
    for (const fn of listeners.get(IPC.lanSharingChanged) ?? []) fn({ sender: 'x' }, { enabled: true });
    off();
    for (const fn of listeners.get(IPC.lanSharingChanged) ?? []) fn({ sender: 'x' }, { enabled: false });
    expect(seen).toEqual([{ enabled: true }]);
  });
});
