import type { LanStatus } from '../server/contracts/lan';
import type { MenuItemOptions, TrayLike } from './facade';
import type { LanControl } from './lan-actions';
import { createShellText, type ShellText } from './shell-text';

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
export function trayMenu(state: TrayState, actions: TrayActions, text: ShellText = createShellText()): MenuItemOptions[] {
  const { lan } = state;
  const { t } = text;
  const address = lan.listening ? lan.urls[0] : undefined;
  const items: MenuItemOptions[] = [
    { label: t('desktop.tray.open'), click: () => actions.open() },
    { type: 'separator' },
    { label: t('desktop.tray.share'), type: 'checkbox', checked: lan.enabled, click: () => actions.setSharing(!lan.enabled) },
    { label: address ? t('desktop.tray.copyAt', { address }) : t('desktop.tray.copy'), enabled: address !== undefined, click: () => actions.copyAddress() },
    { label: t('desktop.tray.qr'), enabled: address !== undefined, click: () => actions.showQrCode() },
  ];
  if (lan.enabled && !lan.listening && lan.error) items.push({ label: t('desktop.tray.notShared', { reason: lan.error }), enabled: false });
  if (state.startAtLogin !== undefined && actions.setStartAtLogin) {
    const set = actions.setStartAtLogin;
    items.push({ type: 'separator' }, { label: t('desktop.tray.startAtLogin'), type: 'checkbox', checked: state.startAtLogin, click: () => set(!state.startAtLogin) });
  }
  items.push({ type: 'separator' }, { label: t('desktop.tray.quit'), click: () => actions.quit() });
  return items;
}

export interface TrayDeps {
  createTray: () => TrayLike;
  buildMenu: (items: MenuItemOptions[]) => unknown;
  lan: LanControl;
  startAtLogin: () => boolean | undefined;
  actions: TrayActions;
  /** The menu's language (English when left out). */
  text?: ShellText;
}

/** The tray icon: its menu follows the LAN sharing state; clicking the icon opens the window. */
export function createTrayController(deps: TrayDeps) {
  const tray = deps.createTray();
  const text = deps.text ?? createShellText();
  tray.setToolTip(text.t('desktop.tray.tooltip'));
  tray.on('click', () => deps.actions.open());
  let destroyed = false;

  const render = (lan: LanStatus) => {
    if (destroyed) return;
    const { t } = text;
    tray.setToolTip(lan.listening ? t('desktop.tray.tooltipShared', { address: lan.urls[0] ?? t('desktop.tray.port', { port: lan.port }) }) : t('desktop.tray.tooltip'));
    tray.setContextMenu(deps.buildMenu(trayMenu({ lan, startAtLogin: deps.startAtLogin() }, deps.actions, text)));
  };
  const refresh = () => deps.lan.status().then(render);
  const unsubscribe = deps.lan.onChange(render);

  return {
    /** Rebuilds the menu from the current state (and the current language). */
    refresh,
    destroy(): void {
      destroyed = true;
      unsubscribe();
      tray.destroy();
    },
  };
}
