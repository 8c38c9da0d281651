import type { LanStatus } from '../server/contracts/lan';
import type { DesktopLanState, DesktopNotice } from '../server/contracts/desktop';
import { desktopNotice } from './notifications';
import type { ShellLog } from './facade';
import { IPC } from './ipc-channels';
import type { LanControl } from './lan-actions';
import { isAppUrl, openExternal } from './navigation';

/** The invoking frame, as Electron describes it. */
export interface IpcInvokeEvent {
  senderFrame: { url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, handler: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void;
}

/** The LAN state the UI is shown: no port errors or internals. */
export function desktopLanState(status: LanStatus): DesktopLanState {
  return { enabled: status.enabled, listening: status.listening, urls: status.listening ? status.urls : [], warnings: status.warnings };
}

/** True when the call comes from a page of the local service (not a frame that navigated elsewhere). */
export function isTrustedSender(event: IpcInvokeEvent, origin: string | undefined): boolean {
  const url = event.senderFrame?.url;
  return url !== undefined && origin !== undefined && isAppUrl(url, origin);
}

export interface IpcDeps {
  ipc: IpcMainLike;
  version: string;
  lan: LanControl;
  open: (url: string) => Promise<void>;
  origin: () => string | undefined;
  log: ShellLog;
  /** Takes the UI's language for the shell's menus and dialogs. */
  setLanguage?: (code: string) => void;
  /** Shows a system notification the UI asked for (already checked); absent where the OS has none. */
  notify?: (notice: DesktopNotice) => void;
}

/** The five things the preload may ask for; every call from another origin is refused. */
export function registerIpc(deps: IpcDeps): void {
  const guard = (event: IpcInvokeEvent) => {
    if (!isTrustedSender(event, deps.origin())) throw new Error('Refused: this call may only come from the Parley window');
  };
  deps.ipc.handle(IPC.appVersion, (event) => {
    guard(event);
    return deps.version;
  });
  deps.ipc.handle(IPC.lanSharing, async (event) => {
    guard(event);
    return desktopLanState(await deps.lan.status());
  });
  deps.ipc.handle(IPC.openExternal, (event, url) => {
    guard(event);
    return typeof url === 'string' && openExternal(url, deps.open, deps.log);
  });
  deps.ipc.handle(IPC.language, (event, code) => {
    guard(event);
    if (typeof code === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(code)) deps.setLanguage?.(code);
  });
  deps.ipc.handle(IPC.notify, (event, notice) => {
    guard(event);
    const checked = desktopNotice(notice);
    if (checked) deps.notify?.(checked);
  });
}
