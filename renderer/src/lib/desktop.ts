import type { DesktopBridge } from '../../../server/contracts/desktop';

declare global {
  interface Window {
    /** Set by the desktop shell's preload; absent in a browser. */
    parley?: DesktopBridge;
  }
}

/** The desktop shell's bridge when the UI runs in the Parley window, else undefined (LAN browsers). */
export function desktop(): DesktopBridge | undefined {
  return typeof window !== 'undefined' ? window.parley : undefined;
}

/** Opens an http(s) link outside the app: the system browser on the desktop, a new tab elsewhere. */
export function openLink(url: string): void {
  const bridge = desktop();
  if (bridge) void bridge.openExternal(url);
  else window.open(url, '_blank', 'noopener,noreferrer');
}
