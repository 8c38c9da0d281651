import { describe, expect, it } from 'vitest';
import type { DesktopNotice } from '../server/contracts/desktop';
import type { LanStatus } from '../server/contracts/lan';
import { desktopLanState, registerIpc, type IpcInvokeEvent } from './ipc';
import { IPC } from './ipc-channels';
import type { LanControl } from './lan-actions';
import { FakeShell, recordingLog } from './testing/fake-electron';

const ORIGIN = 'http://127.0.0.1:41234';
const STATUS: LanStatus = { enabled: true, listening: true, port: 8765, addresses: ['192.168.1.5'], urls: ['http://192.168.1.5:8765'], warnings: ['Sign-up is open'], error: null };
const lan: LanControl = { status: async () => STATUS, update: async () => STATUS, onChange: () => () => undefined };

function setup() {
  const handlers = new Map<string, (event: IpcInvokeEvent, ...args: unknown[]) => unknown>();
  const shell = new FakeShell();
  const languages: string[] = [];
  const notices: DesktopNotice[] = [];
  registerIpc({
    ipc: { handle: (channel, handler) => handlers.set(channel, handler) },
    version: '1.2.3',
    lan,
    open: (u) => shell.openExternal(u),
    origin: () => ORIGIN,
    log: recordingLog(),
    setLanguage: (code) => languages.push(code),
    notify: (notice) => notices.push(notice),
  });
  const call = (channel: string, frameUrl: string | null, ...args: unknown[]) => Promise.resolve().then(() => handlers.get(channel)?.({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, ...args));
  return { handlers, shell, call, languages, notices };
}

describe('what the window may ask the shell', () => {
  it('offers exactly the app version, the LAN sharing state, opening links, telling the UI’s language and notifying', () => {
    expect([...setup().handlers.keys()].sort()).toEqual([IPC.appVersion, IPC.lanSharing, IPC.openExternal, IPC.language, IPC.notify].sort());
  });

  it('shows notifications the Parley window asks for, as checked notices only', async () => {
    const { call, notices } = setup();
    const notice = { kind: 'channel-mention', channel_id: 'c-1', channel_name: 'launch', author: 'Ann', preview: 'see @you', everyone: false };
    await call(IPC.notify, `${ORIGIN}/channels/c-1`, { ...notice, extra: 'dropped' });
    for (const junk of [null, 'x', { ...notice, kind: 'other' }, { ...notice, channel_id: '../../x' }, { ...notice, author: '' }, { ...notice, channel_name: 5 }]) await call(IPC.notify, `${ORIGIN}/`, junk);
    await expect(call(IPC.notify, 'https://evil.example/', notice)).rejects.toThrow(/Refused/);
    expect(notices).toEqual([notice]);
  });

  it('takes the UI’s language from the Parley window only, and only as a language code', async () => {
    const { call, languages } = setup();
    await call(IPC.language, `${ORIGIN}/`, 'de');
    await call(IPC.language, `${ORIGIN}/`, 'pt-BR');
    for (const junk of ['', 'x'.repeat(200), '../../etc', { code: 'de' }, 42]) await call(IPC.language, `${ORIGIN}/`, junk);
    await expect(call(IPC.language, 'https://evil.example/', 'ar')).rejects.toThrow(/Refused/);
    expect(languages).toEqual(['de', 'pt-BR']);
  });

  it('answers the Parley window', async () => {
    const { call, shell } = setup();
    expect(await call(IPC.appVersion, `${ORIGIN}/c/1`)).toBe('1.2.3');
    expect(await call(IPC.lanSharing, `${ORIGIN}/`)).toEqual({ enabled: true, listening: true, urls: ['http://192.168.1.5:8765'], warnings: ['Sign-up is open'] });
    expect(await call(IPC.openExternal, `${ORIGIN}/`, 'https://example.com/')).toBe(true);
    expect(shell.opened).toEqual(['https://example.com/']);
  });

  it('refuses calls from any other page', async () => {
    const { call } = setup();
    for (const frame of ['https://evil.example/', 'http://127.0.0.1:1/', 'file:///tmp/x.html', null]) {
      await expect(call(IPC.appVersion, frame)).rejects.toThrow(/Refused/);
      await expect(call(IPC.lanSharing, frame)).rejects.toThrow(/Refused/);
    }
  });

  it('will not open local files or scripts for the page', async () => {
    const { call, shell } = setup();
    expect(await call(IPC.openExternal, `${ORIGIN}/`, 'file:///etc/passwd')).toBe(false);
    expect(await call(IPC.openExternal, `${ORIGIN}/`, { url: 'https://x' })).toBe(false);
    expect(shell.opened).toEqual([]);
  });

  it('shows no LAN addresses while sharing is off', () => {
    expect(desktopLanState({ ...STATUS, enabled: false, listening: false, warnings: [] }).urls).toEqual([]);
  });
});
