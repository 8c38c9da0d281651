import type { AppLike, DialogLike, ShellLog, UpdaterLike } from './facade';

/** How often a running app looks for an update. */
export const UPDATE_INTERVAL_MS = 4 * 60 * 60 * 1000;

export interface UpdaterOptions {
  app: Pick<AppLike, 'isPackaged'>;
  /** Created only when updates are on (electron-updater reads app-update.yml as soon as it exists). */
  updater: () => UpdaterLike;
  dialog: Pick<DialogLike, 'showMessageBox'>;
  log: ShellLog;
  env: NodeJS.ProcessEnv;
  /** Stops the service cleanly before the installer replaces the app. */
  beforeRestart: () => Promise<void>;
  intervalMs?: number;
  setInterval?: (fn: () => void, ms: number) => object;
  clearInterval?: (timer: unknown) => void;
}

/** Whether this run may update itself, and if not, why. */
export function updatesAllowed(app: Pick<AppLike, 'isPackaged'>, env: NodeJS.ProcessEnv): { allowed: boolean; reason?: string } {
  if (!app.isPackaged) return { allowed: false, reason: 'running from source (not packaged)' };
  if (env.NODE_ENV === 'development') return { allowed: false, reason: 'NODE_ENV=development' };
  if (env.PARLEY_DISABLE_UPDATES === '1' || env.PARLEY_DISABLE_UPDATES === 'true') return { allowed: false, reason: 'PARLEY_DISABLE_UPDATES is set' };
  return { allowed: true };
}

/**
 * Auto-update with electron-updater from the feed in electron-builder.yml's publish section:
 * checks at start and every few hours, downloads in the background, and asks before
 * restarting. Off in development and when the app is not packaged. Failures (offline, no
 * release yet) are logged, never shown: the app keeps working.
 */
export function setupAutoUpdates(options: UpdaterOptions): { enabled: boolean; stop(): void } {
  const { allowed, reason } = updatesAllowed(options.app, options.env);
  if (!allowed) {
    options.log.info(`auto-update off: ${reason}`);
    return { enabled: false, stop: () => undefined };
  }
  const updater = options.updater();
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.on('error', (error) => options.log.warn(`update check failed: ${error.message}`));

  let asked = false;
  updater.on('update-downloaded', (info) => {
    if (asked) return;
    asked = true;
    void options.dialog
      .showMessageBox({
        type: 'info',
        title: 'Update ready',
        message: `Parley ${info.version} is ready to install.`,
        detail: 'Restart now to update, or later: it installs when you quit Parley.',
        buttons: ['Restart now', 'Later'],
        defaultId: 0,
        cancelId: 1,
      })
      .then(async ({ response }) => {
        if (response !== 0) return;
        await options.beforeRestart();
        updater.quitAndInstall();
      })
      .catch((error: unknown) => options.log.error(`update restart failed: ${String(error)}`));
  });

  const check = () => {
    updater.checkForUpdates().catch((error: unknown) => options.log.warn(`update check failed: ${String(error)}`));
  };
  check();
  const every = options.setInterval ?? setInterval;
  const clear = options.clearInterval ?? ((t: unknown) => clearInterval(t as NodeJS.Timeout));
  const timer = every(check, options.intervalMs ?? UPDATE_INTERVAL_MS);
  (timer as { unref?: () => void }).unref?.();
  return { enabled: true, stop: () => clear(timer) };
}
