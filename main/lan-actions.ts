import type { LanConfigUpdate, LanStatus } from '../server/contracts/lan';
import type { ClipboardLike, DialogLike, ShellLog } from './facade';

/** The part of the service's LAN sharing (services.lan) the shell drives. */
export interface LanControl {
  status(): Promise<LanStatus>;
  update(patch: LanConfigUpdate): Promise<LanStatus>;
  onChange(watcher: (status: LanStatus) => void): () => void;
}

export interface LanActionDeps {
  lan: LanControl;
  dialog: DialogLike;
  clipboard: ClipboardLike;
  /** Turns a URL into an image the dialog can show (a QR code). */
  qrImage: (url: string) => Promise<unknown>;
  log: ShellLog;
  /** True while the desktop owner has no password yet (other devices sign in with one). */
  passwordNeeded?: () => Promise<boolean>;
  /** Opens the window on the admin LAN page, whose switch asks for the password first. */
  openLanSettings?: () => void;
}

/** The tray's LAN sharing actions: toggle (with the open sign-up warning), copy the address, show a QR code. */
export function createLanActions(deps: LanActionDeps) {
  const { lan, dialog, clipboard, log } = deps;
  return {
    /** Turns sharing on or off; warns when strangers on the network could sign up. */
    async setSharing(enabled: boolean): Promise<LanStatus | undefined> {
      // Like the admin page and the API: no sharing before the owner has a password.
      if (enabled && (await deps.passwordNeeded?.().catch(() => false))) {
        deps.openLanSettings?.();
        await dialog.showMessageBox({
          type: 'info',
          title: 'Set a password first',
          message: 'Set a password before sharing on the local network.',
          detail: 'Colleagues and your other devices sign in with your email and a password. Choose one in the window (Share on local network), then sharing turns on.',
          buttons: ['OK'],
        });
        return undefined;
      }
      let status: LanStatus;
      try {
        status = await lan.update({ enabled });
      } catch (error) {
        const message = (error as Error).message;
        log.warn(`LAN sharing could not be turned ${enabled ? 'on' : 'off'}: ${message}`);
        dialog.showErrorBox('Could not share on the local network', message);
        return undefined;
      }
      if (enabled && status.warnings.length > 0) {
        await dialog.showMessageBox({
          type: 'warning',
          title: 'Shared on the local network',
          message: 'Parley is now open to your local network.',
          detail: [...status.warnings, '', `Address: ${status.urls.join(', ') || 'none yet'}`, 'You can turn sign-up off in the admin settings.'].join('\n'),
          buttons: ['OK'],
        });
      }
      return status;
    },

    /** Copies the first LAN URL to the clipboard; returns it (undefined when there is none). */
    async copyAddress(): Promise<string | undefined> {
      const url = (await lan.status()).urls[0];
      if (url) clipboard.writeText(url);
      return url;
    },

    /** Shows the LAN URLs with a QR code of the first, for phones and colleagues. */
    async showQrCode(): Promise<void> {
      const status = await lan.status();
      const url = status.urls[0];
      if (!url) {
        await dialog.showMessageBox({ type: 'info', message: 'This machine has no LAN address right now.', detail: 'Connect to a network and try again.' });
        return;
      }
      await dialog.showMessageBox({
        type: 'none',
        title: 'Open Parley on another device',
        message: 'Scan the code or type the address in a browser on the same network:',
        detail: status.urls.join('\n') + (status.listening ? '' : '\n\nSharing is off: turn on "Share on local network" first.'),
        icon: await deps.qrImage(url),
        buttons: ['Close'],
      });
    },
  };
}
export type LanActions = ReturnType<typeof createLanActions>;
