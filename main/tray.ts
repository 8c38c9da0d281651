import type { LanStatus } from '../server/contracts/lan';
import type { MenuItemOptions, TrayLike } from './facade';
import type { LanControl } from './lan-actions';

/** What the tray menu does. */
export interface TrayActions {
  open(): void;
  setSharing(enabled: boolean): void;
  copyAddress(): void;
  showQrCode(): void;
  /** Absent where the OS has no login items (Linux). */
  setStartAtLogin?: (enabled: boolean) => void;
  quit(): void;
}

export interface TrayState {
  lan: LanStatus;
  /** undefined where start at login is not supported. */
  startAtLogin: boolean | undefined;
}

/** The tray menu for a state: open, share on LAN on/off, copy LAN address, QR code, start at login, quit. */
export function trayMenu(state: TrayState, actions: TrayActions): MenuItemOptions[] {
  const { lan } = state;
  const address = lan.listening ? lan.urls[0] : undefined;
  const items: MenuItemOptions[] = [
    { label: 'Open Parley', click: () => actions.open() },
    { type: 'separator' },
    { label: 'Share on local network', type: 'checkbox', checked: lan.enabled, click: () => actions.setSharing(!lan.enabled) },
    { label: address ? `Copy LAN address (${address})` : 'Copy LAN address', enabled: address !== undefined, click: () => actions.copyAddress() },
    { label: 'Show QR code…', enabled: address !== undefined, click: () => actions.showQrCode() },
  ];
  if (lan.enabled && !lan.listening && lan.error) items.push({ label: `Not shared: ${lan.error}`, enabled: false });
  if (state.startAtLogin !== undefined && actions.setStartAtLogin) {
    const set = actions.setStartAtLogin;
    items.push({ type: 'separator' }, { label: 'Start at login', type: 'checkbox', checked: state.startAtLogin, click: () => set(!state.startAtLogin) });
  }
  items.push({ type: 'separator' }, { label: 'Quit Parley', click: () => actions.quit() });
  return items;
}

export interface TrayDeps {
  createTray: () => TrayLike;
  buildMenu: (items: MenuItemOptions[]) => unknown;
  lan: LanControl;
  startAtLogin: () => boolean | undefined;
  actions: TrayActions;
}

/** The tray icon: its menu follows the LAN sharing state; clicking the icon opens the window. */
export function createTrayController(deps: TrayDeps) {
  const tray = deps.createTray();
  tray.setToolTip('Parley');
  tray.on('click', () => deps.actions.open());
  let destroyed = false;

  const render = (lan: LanStatus) => {
    if (destroyed) return;
    tray.setToolTip(lan.listening ? `Parley — shared at ${lan.urls[0] ?? `port ${lan.port}`}` : 'Parley');
    tray.setContextMenu(deps.buildMenu(trayMenu({ lan, startAtLogin: deps.startAtLogin() }, deps.actions)));
  };
  const refresh = () => deps.lan.status().then(render);
  const unsubscribe = deps.lan.onChange(render);

  return {
    /** Rebuilds the menu from the current state. */
    refresh,
    destroy(): void {
      destroyed = true;
      unsubscribe();
      tray.destroy();
    },
  };
}
