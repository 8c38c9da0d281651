import { describe, expect, it } from 'vitest';
import type { LanStatus } from '../server/contracts/lan';
import { createLanActions, type LanControl } from './lan-actions';
import { FakeClipboard, FakeDialog, FakeTray, recordingLog } from './testing/fake-electron';
import { createTrayController, trayMenu, type TrayActions } from './tray';

const OFF: LanStatus = { enabled: false, listening: false, port: 8765, addresses: ['192.168.1.5'], urls: ['http://192.168.1.5:8765'], warnings: [], error: null };
const ON: LanStatus = { ...OFF, enabled: true, listening: true, warnings: ['Sign-up is open: anyone on your network can create an account.'] };

function recordingActions(log: string[]): TrayActions {
  return {
    open: () => log.push('open'),
    setSharing: (on) => log.push(`share ${on}`),
    copyAddress: () => log.push('copy'),
    showQrCode: () => log.push('qr'),
    setStartAtLogin: (on) => log.push(`login ${on}`),
    quit: () => log.push('quit'),
  };
}

/** A LAN control whose state the test moves. */
function fakeLan(initial: LanStatus) {
  let current = initial;
  const watchers = new Set<(s: LanStatus) => void>();
  const control: LanControl & { set(s: LanStatus): void; updates: unknown[]; fail?: Error } = {
    updates: [],
    status: async () => current,
    update: async (patch) => {
      control.updates.push(patch);
      if (control.fail) throw control.fail;
      current = patch.enabled ? ON : OFF;
      for (const w of watchers) w(current);
      return current;
    },
    onChange: (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    set: (s) => {
      current = s;
      for (const w of watchers) w(s);
    },
  };
  return control;
}

describe('tray menu', () => {
  it('offers open, share on LAN, copy address, QR code, start at login and quit', () => {
    const menu = trayMenu({ lan: ON, startAtLogin: false }, recordingActions([]));
    expect(menu.filter((i) => i.type !== 'separator').map((i) => i.label)).toEqual([
      'Open Parley',
      'Share on local network',
      'Copy LAN address (http://192.168.1.5:8765)',
      'Show QR code…',
      'Start at login',
      'Quit Parley',
    ]);
    expect(menu.find((i) => i.label === 'Share on local network')).toMatchObject({ type: 'checkbox', checked: true });
  });

  it('greys out the LAN address while not sharing, and hides start at login where unsupported', () => {
    const menu = trayMenu({ lan: OFF, startAtLogin: undefined }, recordingActions([]));
    expect(menu.find((i) => i.label?.startsWith('Copy LAN address'))).toMatchObject({ label: 'Copy LAN address', enabled: false });
    expect(menu.find((i) => i.label === 'Start at login')).toBeUndefined();
  });

  it('says why sharing is not running', () => {
    const menu = trayMenu({ lan: { ...OFF, enabled: true, error: 'Port 8765 is already in use on this machine; choose another port' } , startAtLogin: undefined }, recordingActions([]));
    expect(menu.some((i) => i.label?.includes('already in use') && i.enabled === false)).toBe(true);
  });

  it('turns each click into its action', () => {
    const log: string[] = [];
    for (const item of trayMenu({ lan: OFF, startAtLogin: true }, recordingActions(log))) item.click?.();
    expect(log).toEqual(['open', 'share true', 'copy', 'qr', 'login false', 'quit']);
  });

  it('follows LAN sharing changes made elsewhere (the admin page) and opens the window on click', async () => {
    const lan = fakeLan(OFF);
    const tray = new FakeTray();
    const log: string[] = [];
    const controller = createTrayController({ createTray: () => tray, buildMenu: (items) => items, lan, startAtLogin: () => undefined, actions: recordingActions(log) });
    await controller.refresh();
    expect(tray.menu.find((i) => i.label === 'Share on local network')?.checked).toBe(false);
    lan.set(ON);
    expect(tray.menu.find((i) => i.label === 'Share on local network')?.checked).toBe(true);
    expect(tray.tooltip).toContain('http://192.168.1.5:8765');
    tray.emit('click');
    expect(log).toEqual(['open']);
    controller.destroy();
    expect(tray.destroyed).toBe(true);
    lan.set(OFF);
    expect(tray.menu.find((i) => i.label === 'Share on local network')?.checked).toBe(true);
  });
});

describe('LAN actions of the tray', () => {
  function setup() {
    const lan = fakeLan(OFF);
    const dialog = new FakeDialog();
    const clipboard = new FakeClipboard();
    const actions = createLanActions({ lan, dialog, clipboard, qrImage: async (url) => `qr:${url}`, log: recordingLog() });
    return { lan, dialog, clipboard, actions };
  }

  it('warns when sharing starts while sign-up is open', async () => {
    const { actions, dialog, lan } = setup();
    await actions.setSharing(true);
    expect(lan.updates).toEqual([{ enabled: true }]);
    expect(dialog.boxes[0]).toMatchObject({ type: 'warning' });
    expect(dialog.boxes[0]?.detail).toContain('Sign-up is open');
    expect(dialog.boxes[0]?.detail).toContain('http://192.168.1.5:8765');
  });

  it('asks the owner to set a password first (in the window) instead of sharing', async () => {
    const lan = fakeLan(OFF);
    const dialog = new FakeDialog();
    const opened: string[] = [];
    let needed = true;
    const actions = createLanActions({
      lan,
      dialog,
      clipboard: new FakeClipboard(),
      qrImage: async (url) => `qr:${url}`,
      log: recordingLog(),
      passwordNeeded: async () => needed,
      openLanSettings: () => opened.push('lan settings'),
    });
    expect(await actions.setSharing(true)).toBeUndefined();
    expect(lan.updates).toEqual([]);
    expect(opened).toEqual(['lan settings']);
    expect(dialog.boxes[0]?.message).toBe('Set a password before sharing on the local network.');
    // Turning off never asks; with a password, sharing turns on.
    await actions.setSharing(false);
    needed = false;
    await actions.setSharing(true);
    expect(lan.updates).toEqual([{ enabled: false }, { enabled: true }]);
  });

  it('shows why sharing could not start instead of failing silently', async () => {
    const { actions, dialog, lan } = setup();
    lan.fail = new Error('Port 8765 is already in use on this machine; choose another port');
    expect(await actions.setSharing(true)).toBeUndefined();
    expect(dialog.errors[0]?.content).toContain('already in use');
  });

  it('copies the LAN address to the clipboard', async () => {
    const { actions, clipboard } = setup();
    expect(await actions.copyAddress()).toBe('http://192.168.1.5:8765');
    expect(clipboard.text).toBe('http://192.168.1.5:8765');
  });

  it('shows a QR code of the LAN address', async () => {
    const { actions, dialog } = setup();
    await actions.showQrCode();
    expect(dialog.boxes[0]).toMatchObject({ icon: 'qr:http://192.168.1.5:8765' });
  });
});
