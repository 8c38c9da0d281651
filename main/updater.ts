import path from 'node:path';
import type { AppLike, DialogLike, ShellLog, UpdaterLike } from './facade';
import { createShellText, type ShellText } from './shell-text';

/** How often a running app looks for an update. */
export const UPDATE_INTERVAL_MS = 4 * 60 * 60 * 1000;

/** Linux system packages (electron-builder writes the type to `resources/package-type`). */
const SYSTEM_PACKAGES = new Set(['deb', 'rpm', 'pacman']);

/**
 * How this installation gets new versions:
 * - `in-app`: electron-updater downloads and installs (NSIS on Windows, the zip beside the dmg
 *   on macOS, AppImage on Linux);
 * - `package-manager`: a deb (or rpm/pacman) install is updated by the system's package manager,
 *   never by the app through pkexec; the app only tells the user a new version exists;
 * - `off`: running from source, in development, disabled, or an unpacked Linux build.
 */
export type UpdateRoute = { kind: 'in-app' } | { kind: 'package-manager'; packageType: string } | { kind: 'off'; reason: string };

export interface UpdateRouteInput {
  app: Pick<AppLike, 'isPackaged'>;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The content of `resources/package-type`, or undefined when there is none. */
  packageType: () => string | undefined;
  /** Parley's data dir and electron-updater's download folder: an update must never write into the data. */
  folders?: { dataDir: string; updateCache: string };
}

/** electron-builder's `updaterCacheDirName` in app-update.yml: `<package name>-updater`. */
export const UPDATER_CACHE_DIR_NAME = 'parley-updater';

/**
 * Where electron-updater downloads an update: its getAppCacheDir() (the OS's per-user cache
 * folder: %LOCALAPPDATA%, ~/Library/Caches, $XDG_CACHE_HOME or ~/.cache) joined with
 * app-update.yml's updaterCacheDirName. Never inside Parley's data dir (userData/data).
 */
export function updateCacheDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  let base: string;
  if (platform === 'win32') base = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
  else if (platform === 'darwin') base = join(home, 'Library', 'Caches');
  else base = env.XDG_CACHE_HOME || join(home, '.cache');
  return join(base, UPDATER_CACHE_DIR_NAME);
}

/** True when one folder is the other or lies inside it (case-insensitively on Windows and macOS). */
export function foldersOverlap(a: string, b: string, platform: NodeJS.Platform): boolean {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const fold = (x: string) => (platform === 'linux' ? p.resolve(x) : p.resolve(x).toLowerCase());
  const [x, y] = [fold(a), fold(b)];
  const inside = (inner: string, outer: string) => inner === outer || inner.startsWith(outer.endsWith(p.sep) ? outer : outer + p.sep);
  return inside(x, y) || inside(y, x);
}

/** Decides the update route of this run (see UpdateRoute). */
export function updateRoute({ app, platform, env, packageType, folders }: UpdateRouteInput): UpdateRoute {
  if (!app.isPackaged) return { kind: 'off', reason: 'running from source (not packaged)' };
  if (env.NODE_ENV === 'development') return { kind: 'off', reason: 'NODE_ENV=development' };
  if (env.PARLEY_DISABLE_UPDATES === '1' || env.PARLEY_DISABLE_UPDATES === 'true') return { kind: 'off', reason: 'PARLEY_DISABLE_UPDATES is set' };
  if (env.PARLEY_OFFLINE === '1' || env.PARLEY_OFFLINE === 'true') return { kind: 'off', reason: 'PARLEY_OFFLINE is set (no update checks)' };
  if (folders && foldersOverlap(folders.updateCache, folders.dataDir, platform)) {
    return { kind: 'off', reason: `the update download folder ${folders.updateCache} and the data folder ${folders.dataDir} overlap; an update never writes into the data` };
  }
  if (platform !== 'linux') return { kind: 'in-app' };
  // An AppImage sets APPIMAGE to its own path when it runs; only then can it replace itself.
  if (env.APPIMAGE) return { kind: 'in-app' };
  const type = packageType()?.trim();
  if (type && SYSTEM_PACKAGES.has(type)) return { kind: 'package-manager', packageType: type };
  return { kind: 'off', reason: 'neither an AppImage nor a system package' };
}

/** What to tell a deb/rpm/pacman user when a new version is out. */
export function packageManagerHint(packageType: string, version: string, text: ShellText = createShellText()): string {
  const file = `Parley-${version}`;
  if (packageType === 'deb') return text.t('desktop.update.hintDeb', { file });
  if (packageType === 'rpm') return text.t('desktop.update.hintRpm', { file });
  return text.t('desktop.update.hintPacman', { file });
}

export interface UpdaterOptions {
  route: UpdateRoute;
  /** Loads electron-updater only when updates are on (it reads app-update.yml as soon as it exists). */
  updater: () => UpdaterLike | Promise<UpdaterLike>;
  dialog: Pick<DialogLike, 'showMessageBox'>;
  log: ShellLog;
  /** Stops the service cleanly before the installer replaces the app. */
  beforeRestart: () => Promise<void>;
  /** Starts this version of the app again and ends this process (app.relaunch + app.exit): after a failed install. */
  relaunch: () => void;
  /** False while Parley is offline (the admin switch, read at each check): the check is skipped. */
  allowed?: () => Promise<boolean>;
  /** How long the installer may take to end the app before it counts as failed (INSTALL_TAKEOVER_MS). */
  takeoverMs?: number;
  setTimeout?: (fn: () => void, ms: number) => object;
  intervalMs?: number;
  setInterval?: (fn: () => void, ms: number) => object;
  clearInterval?: (timer: unknown) => void;
  /** The dialogs' language (English when left out). */
  text?: ShellText;
}

/**
 * Auto-update with electron-updater from the feed of electron-builder.yml's `publish` section
 * (written into the packaged app's app-update.yml): checks at start and every few hours, in the
 * background (start never waits for it). In-app installs download, then ask before restarting;
 * downgrades are refused; on Windows the update's signature must match the publisher of the
 * running app (electron-builder's `verifyUpdateCodeSignature`). System packages are only told
 * about a new version. Failures (offline, no release yet) are logged, never shown.
 */
export function setupAutoUpdates(options: UpdaterOptions): { enabled: boolean; stop(): void } {
  const { route, log } = options;
  if (route.kind === 'off') {
    log.info(`auto-update off: ${route.reason}`);
    return { enabled: false, stop: () => undefined };
  }
  let stopped = false;
  let timer: object | undefined;
  const every = options.setInterval ?? setInterval;
  const clear = options.clearInterval ?? ((t: unknown) => clearInterval(t as NodeJS.Timeout));

  const start = (updater: UpdaterLike) => {
    if (stopped) return;
    const inApp = route.kind === 'in-app';
    updater.autoDownload = inApp;
    updater.autoInstallOnAppQuit = inApp;
    // electron-updater turns downgrades on when a channel is set: a feed must never roll the app back.
    updater.allowDowngrade = false;
    updater.on('error', (error) => log.warn(`update check failed: ${error.message}`));
    if (inApp) watchDownloads(updater, options);
    else tellAboutNewVersions(updater, route.packageType, options);
    const check = () => {
      void (options.allowed ?? (async () => true))()
        .then((allowed) => {
          if (!allowed) return log.info('update check skipped: Parley is offline');
          return updater.checkForUpdates();
        })
        .catch((error: unknown) => log.warn(`update check failed: ${String(error)}`));
    };
    check();
    timer = every(check, options.intervalMs ?? UPDATE_INTERVAL_MS);
    (timer as { unref?: () => void }).unref?.();
  };
  void Promise.resolve()
    .then(options.updater)
    .then(start)
    .catch((error: unknown) => log.warn(`auto-update unavailable: ${String(error)}`));
  return {
    enabled: true,
    stop: () => {
      stopped = true;
      if (timer) clear(timer);
    },
  };
}

/** In-app: the update downloads in the background; the user picks when to restart. */
function watchDownloads(updater: UpdaterLike, options: UpdaterOptions): void {
  let asked = false;
  updater.on('update-downloaded', (info) => {
    if (asked) return;
    asked = true;
    const { t } = options.text ?? createShellText();
    void options.dialog
      .showMessageBox({
        type: 'info',
        title: t('desktop.update.readyTitle'),
        message: t('desktop.update.readyMessage', { version: info.version }),
        detail: t('desktop.update.readyDetail'),
        buttons: [t('desktop.update.restartNow'), t('desktop.update.later')],
        defaultId: 0,
        cancelId: 1,
      })
      .then(async ({ response }) => {
        if (response !== 0) return;
        await options.beforeRestart();
        installOrStartAgain(updater, options);
      })
      .catch((error: unknown) => options.log.error(`update restart failed: ${String(error)}`));
  });
}

/** How long the app may still be running after the installer was asked to take over. */
export const INSTALL_TAKEOVER_MS = 2 * 60 * 1000;

/**
 * Hands over to the installer. The service is already stopped, so if the install fails (it
 * throws, electron-updater reports an error, or the app is still running long after) the app
 * starts again: the previous version, which the installer left in place, with the data as it was.
 */
function installOrStartAgain(updater: UpdaterLike, options: UpdaterOptions): void {
  let restarted = false;
  const startAgain = (why: string) => {
    if (restarted) return;
    restarted = true;
    options.log.error(`the update did not install (${why}); starting this version again`);
    options.relaunch();
  };
  updater.on('error', (error) => startAgain(error.message));
  const timer = (options.setTimeout ?? setTimeout)(() => startAgain(`still running ${Math.round((options.takeoverMs ?? INSTALL_TAKEOVER_MS) / 1000)} s after the installer was started`), options.takeoverMs ?? INSTALL_TAKEOVER_MS);
  (timer as { unref?: () => void }).unref?.();
  try {
    updater.quitAndInstall();
  } catch (error) {
    startAgain(error instanceof Error ? error.message : String(error));
  }
}

/** System package: nothing is downloaded or installed; the user hears once per version. */
function tellAboutNewVersions(updater: UpdaterLike, packageType: string, options: UpdaterOptions): void {
  const told = new Set<string>();
  updater.on('update-available', (info) => {
    if (told.has(info.version)) return;
    told.add(info.version);
    options.log.info(`Parley ${info.version} is available; this ${packageType} install is updated by the package manager`);
    const text = options.text ?? createShellText();
    const { t } = text;
    void options.dialog
      .showMessageBox({ type: 'info', title: t('desktop.update.availableTitle'), message: t('desktop.update.availableMessage', { version: info.version }), detail: packageManagerHint(packageType, info.version, text), buttons: [t('desktop.button.ok')] })
      .catch((error: unknown) => options.log.error(`update notice failed: ${String(error)}`));
  });
}
