import type { LanConfigUpdate, LanStatus } from '../server/contracts/lan';
import type { ClipboardLike, DialogLike, ShellLog } from './facade';
import { createShellText, type ShellText } from './shell-text';

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
  /** The dialogs' language (English when left out). */
  text?: ShellText;
}

/** The tray's LAN sharing actions: toggle (with the open sign-up warning), copy the address, show a QR code. */
export function createLanActions(deps: LanActionDeps) {
  const { lan, dialog, clipboard, log } = deps;
  const text = deps.text ?? createShellText();
  const t: ShellText['t'] = (key, vars) => text.t(key, vars);
  return {
    /** Turns sharing on or off; warns when strangers on the network could sign up. */
    async setSharing(enabled: boolean): Promise<LanStatus | undefined> {
      // Like the admin page and the API: no sharing before the owner has a password.
      if (enabled && (await deps.passwordNeeded?.().catch(() => false))) {
        deps.openLanSettings?.();
        await dialog.showMessageBox({
          type: 'info',
          title: t('desktop.lan.passwordTitle'),
          message: t('desktop.lan.passwordMessage'),
          detail: t('desktop.lan.passwordDetail'),
          buttons: [t('desktop.button.ok')],
        });
        return undefined;
      }
      let status: LanStatus;
      try {
        status = await lan.update({ enabled });
      } catch (error) {
        const message = (error as Error).message;
        log.warn(`LAN sharing could not be turned ${enabled ? 'on' : 'off'}: ${message}`);
        dialog.showErrorBox(t('desktop.lan.failedTitle'), message);
        return undefined;
      }
      if (enabled && status.warnings.length > 0) {
        await dialog.showMessageBox({
          type: 'warning',
          title: t('desktop.lan.sharedTitle'),
          message: t('desktop.lan.sharedMessage'),
          detail: [...status.warnings, '', t('desktop.lan.addresses', { urls: status.urls.join(', ') || t('desktop.lan.noAddressYet') }), t('desktop.lan.signupHint')].join('\n'),
          buttons: [t('desktop.button.ok')],
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
        await dialog.showMessageBox({ type: 'info', message: t('desktop.lan.noAddressMessage'), detail: t('desktop.lan.noAddressDetail') });
        return;
      }
      await dialog.showMessageBox({
        type: 'none',
        title: t('desktop.lan.qrTitle'),
        message: t('desktop.lan.qrMessage'),
        detail: status.urls.join('\n') + (status.listening ? '' : `\n\n${t('desktop.lan.sharingOff')}`),
        icon: await deps.qrImage(url),
        buttons: [t('desktop.button.close')],
      });
    },
  };
}
export type LanActions = ReturnType<typeof createLanActions>;
