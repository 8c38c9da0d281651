import os from 'node:os';
import path from 'node:path';
import { adoptLegacyDataDir, type RunningServer, type StartServerOptions } from '../server';
import type { DesktopNotice } from '../server/contracts/desktop';
import type {
  AppLike, BrowserWindowLike, ClipboardLike, DialogLike, MenuItemOptions, Rectangle, SessionLike, ShellLike, ShellLog, TrayLike, UpdaterLike, UtilityProcessModuleLike, WindowOptions,
} from './facade';
import { chooseSecretStore, startHost } from './host';
import { desktopLanState, registerIpc, type IpcMainLike } from './ipc';
import { IPC } from './ipc-channels';
import { createLanActions } from './lan-actions';
import { showNotice, type CreateNotification } from './notifications';
import { utilityProcessStarter } from './process-starter';
import { guardWebContents } from './navigation';
import { secureSession } from './session-security';
import { createStateStore } from './shell-state';
import { createShellText, type ShellText } from './shell-text';
import { createTrayController } from './tray';
import { asUpgradeFailure, explainUpgradeFailure } from './upgrade-failure';
import { setupAutoUpdates, updateCacheDir, updateRoute } from './updater';
import { focusWindow, mainWindowOptions, rememberWindowState } from './window';

/** Everything the shell needs from Electron and the service, injected so it runs under Node in tests. */
export interface ShellDeps {
  app: AppLike;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  log: ShellLog;
  startServer: (options: StartServerOptions) => Promise<RunningServer>;
  /** Extra service options (tests quiet the logs). */
  serverOptions?: Partial<StartServerOptions>;
  createWindow: (options: WindowOptions) => BrowserWindowLike;
  /** The screens' work areas (only valid once the app is ready). */
  workAreas: () => Rectangle[];
  session: () => SessionLike;
  shell: ShellLike;
  dialog: DialogLike;
  clipboard: ClipboardLike;
  ipc: IpcMainLike;
  createTray: () => TrayLike;
  buildMenu: (items: MenuItemOptions[]) => unknown;
  qrImage: (url: string) => Promise<unknown>;
  /** Loads electron-updater (only called when this run updates). */
  updater: () => UpdaterLike | Promise<UpdaterLike>;
  /** The packaged app's `resources/package-type` (deb, rpm, pacman), written by electron-builder. */
  packageType?: () => string | undefined;
  preloadPath: string;
  iconPath?: string;
  /** The desktop owner's name for a new workspace (the OS account's name). */
  ownerName?: string;
  /** Installs the application menu (Menu.setApplicationMenu). */
  setApplicationMenu?: (menu: unknown) => void;
  /** The OS's languages, most preferred first (app.getPreferredSystemLanguages). */
  preferredLanguages?: () => readonly string[];
  /** The OS account's home folder (os.homedir()), where the update download cache is found. */
  homeDir?: string;
  /** Puts a backup back into the data dir, replacing what is there (server/backup restoreBackup with force). */
  restoreBackup: (archive: string, dataDir: string) => Promise<{ previous?: string }>;
  /** Makes a system notification; absent where the OS shows none (Notification.isSupported()). */
  createNotification?: CreateNotification;
  /** Electron's utilityProcess: the service's helper processes (built-in model runtime) start with it. */
  utilityProcess?: UtilityProcessModuleLike;
}

/** The running shell, for index.ts and tests. */
export interface ShellRuntime {
  server: RunningServer;
  window(): BrowserWindowLike | undefined;
  updatesEnabled: boolean;
}

/** True for the service's "keychain not available" start-up error (see server/secrets). */
export function isKeychainUnavailable(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('The OS keychain is not available');
}

/**
 * The application menu: only what a chat app needs (edit commands for the text fields, zoom,
 * window, quit). Reload and developer tools only when running from source.
 */
export function applicationMenu(platform: NodeJS.Platform, development: boolean, text: ShellText = createShellText()): MenuItemOptions[] {
  const view: MenuItemOptions[] = [
    ...(development ? [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] : []),
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ] as MenuItemOptions[];
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as MenuItemOptions] : [{ label: text.t('desktop.menu.file'), submenu: [{ role: 'quit' }] } as MenuItemOptions]),
    { role: 'editMenu' },
    { label: text.t('desktop.menu.view'), submenu: view },
    { role: 'windowMenu' },
  ];
}

/** Start at login exists on macOS and Windows only. */
export function loginItemsSupported(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}

/**
 * The desktop app's lifecycle: one instance; on ready, the service on loopback, then the
 * window, tray and updater; on quit, the service is closed (and the database flushed) before
 * the process ends. Closing the last window quits, except on macOS and while LAN sharing is on
 * (colleagues still use the service; the tray stays).
 */
export function runShell(deps: ShellDeps): { ready: Promise<ShellRuntime | undefined> } {
  const { app, log } = deps;
  if (!app.requestSingleInstanceLock()) {
    log.info('Parley is already running: focusing its window');
    app.quit();
    return { ready: Promise.resolve(undefined) };
  }

  const state = createStateStore(path.join(app.getPath('userData'), 'shell-state.json'));
  // Menus and dialogs speak the language the UI last reported, else the OS's (the UI reports the owner's choice).
  const remembered = state.read().language;
  const text = createShellText([...(remembered ? [remembered] : []), ...(deps.preferredLanguages?.() ?? [])]);
  const t: ShellText['t'] = (key, vars) => text.t(key, vars);
  const installMenu = () => deps.setApplicationMenu?.(deps.buildMenu(applicationMenu(deps.platform, !app.isPackaged, text)));
  let phase: 'starting' | 'running' | 'stopping' | 'stopped' = 'starting';
  let server: RunningServer | undefined;
  let win: BrowserWindowLike | undefined;
  let lanListening = false;
  let tray: ReturnType<typeof createTrayController> | undefined;
  let updates: ReturnType<typeof setupAutoUpdates> | undefined;
  let unwatchLan: (() => void) | undefined;
  const origin = () => (server ? new URL(server.url).origin : undefined);
  const open = (url: string) => deps.shell.openExternal(url);

  function openWindow(running: RunningServer): BrowserWindowLike {
    const remembered = state.read().window;
    const created = deps.createWindow(mainWindowOptions(deps.preloadPath, remembered, deps.workAreas(), deps.iconPath, !app.isPackaged));
    rememberWindowState(created, (saved) => state.write({ window: saved }));
    created.once('ready-to-show', () => {
      if (remembered?.maximized) created.maximize();
      created.show();
    });
    created.on('closed', () => {
      if (win === created) win = undefined;
    });
    // Windows shutdown or log-off: close the service (and flush the database) before the process dies.
    created.on('session-end', () => void stop());
    void firstPageUrl(running)
      .then((url) => created.loadURL(url))
      .catch((error: unknown) => log.error(`could not load the UI: ${String(error)}`));
    return created;
  }

  /**
   * The page a new window opens on: a one-time owner handover (the desktop owner never sees a
   * sign-in form; a new workspace gets its owner here), else the service's home page.
   */
  async function firstPageUrl(running: RunningServer): Promise<string> {
    try {
      const code = await running.services.desktop.handover.issue(deps.ownerName);
      if (code) return `${running.url}/auths/desktop-handover?code=${encodeURIComponent(code)}`;
    } catch (error) {
      log.warn(`owner sign-in handover failed, showing the sign-in form: ${String(error)}`);
    }
    return running.url;
  }

  function showWindow(): void {
    if (phase !== 'running' || !server) return;
    if (win && !win.isDestroyed()) focusWindow(win);
    else win = openWindow(server);
  }

  let stopping: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopping ??= (async () => {
      phase = 'stopping';
      await ready.catch(() => undefined);
      updates?.stop();
      unwatchLan?.();
      tray?.destroy();
      if (server) await server.close();
      log.info('Parley stopped');
    })()
      .catch((error: unknown) => log.error(`error while stopping: ${String(error)}`))
      .finally(() => {
        phase = 'stopped';
      });
    return stopping;
  }

  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, origin, open, log));
  app.on('second-instance', () => showWindow());
  app.on('activate', () => showWindow());
  app.on('window-all-closed', () => {
    if (deps.platform === 'darwin') return;
    if (lanListening) {
      log.info('window closed; Parley keeps sharing on the local network from the tray');
      return;
    }
    app.quit();
  });
  app.on('before-quit', (event) => {
    if (phase === 'stopped') return;
    event.preventDefault();
    void stop().then(() => app.quit());
  });

  const ready = (async (): Promise<ShellRuntime | undefined> => {
    await app.whenReady();
    secureSession(deps.session(), origin);
    installMenu();
    // Parley's data lives in userData/data, apart from Chromium's own profile files; data an
    // earlier version kept in userData itself moves there once.
    const dataDir = path.join(app.getPath('userData'), 'data');
    const adopted = adoptLegacyDataDir(dataDir, [app.getPath('userData')]);
    if (adopted) log.info(`moved Parley's data from ${adopted} to ${dataDir}`);
    let running: RunningServer | undefined;
    while (!running) {
      try {
        running = await startHost({
          startServer: (options) => deps.startServer({ ...options, ...deps.serverOptions }),
          dataDir,
          secretStore: chooseSecretStore(deps.platform, deps.env),
          rememberedPort: state.read().port,
          ownerName: deps.ownerName,
          startProcess: deps.utilityProcess ? utilityProcessStarter(deps.utilityProcess) : undefined,
          log,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`Parley could not start: ${message}`);
        const upgrade = asUpgradeFailure(error);
        if (upgrade) {
          // A failed database update offers the snapshot taken before it; a newer Parley's data is explained.
          await explainUpgradeFailure(upgrade, { dialog: deps.dialog, restore: deps.restoreBackup, log, text });
          phase = 'stopped';
          app.exit(1);
          return undefined;
        }
        // A locked keychain (macOS login keychain, Windows vault after a password change) can be
        // unlocked by the user: offer a retry instead of quitting. (On Linux a missing Secret
        // Service is not something to retry: the message says how to choose the file store.)
        if (isKeychainUnavailable(error) && deps.platform !== 'linux' && phase === 'starting') {
          const choice = await deps.dialog.showMessageBox({
            type: 'warning',
            title: t('desktop.tray.tooltip'),
            message: t('desktop.start.keychainMessage'),
            detail: t('desktop.start.keychainDetail', { reason: message }),
            buttons: [t('desktop.start.tryAgain'), t('desktop.start.quit')],
            defaultId: 0,
            cancelId: 1,
          });
          if (choice.response === 0) continue;
        } else {
          deps.dialog.showErrorBox(t('desktop.start.failedTitle'), message);
        }
        phase = 'stopped';
        app.exit(1);
        return undefined;
      }
    }
    server = running;
    state.write({ port: running.port });
    // On Windows and Linux Chromium spell-checks with Hunspell dictionaries it downloads from
    // Google's servers (macOS uses its own checker): offline, spell checking stays off (read at start).
    if (deps.platform !== 'darwin' && (await running.services.offline.status()).offline) deps.session().setSpellCheckerEnabled(false);
    const lan = running.services.lan;
    const setLanguage = (code: string) => {
      if (!text.setLanguage(code)) return;
      state.write({ language: text.language() });
      installMenu();
      void tray?.refresh();
    };
    const create = deps.createNotification;
    const notify = create
      ? (notice: DesktopNotice) =>
          showNotice(notice, {
            create,
            text,
            open: (page) => {
              showWindow();
              win?.webContents.send(IPC.openPath, page);
            },
          })
      : undefined;
    registerIpc({ ipc: deps.ipc, version: app.getVersion(), lan, open, origin, log, setLanguage, notify });
    if (phase !== 'starting') return { server: running, window: () => win, updatesEnabled: false };
    phase = 'running';

    lanListening = (await lan.status()).listening;
    unwatchLan = lan.onChange((status) => {
      lanListening = status.listening;
      if (win && !win.isDestroyed()) win.webContents.send(IPC.lanSharingChanged, desktopLanState(status));
    });
    win = openWindow(running);

    const lanActions = createLanActions({
      lan,
      dialog: deps.dialog,
      clipboard: deps.clipboard,
      qrImage: deps.qrImage,
      log,
      text,
      passwordNeeded: async () => {
        const owner = await running.services.auth.ensureOwner(deps.ownerName ?? 'Owner');
        return owner ? running.services.auth.needsPassword(owner.id) : false;
      },
      openLanSettings: () => {
        showWindow();
        void win?.loadURL(`${running.url}/admin/lan`).catch((error: unknown) => log.warn(`could not open the LAN settings: ${String(error)}`));
      },
    });
    const canLogin = loginItemsSupported(deps.platform);
    tray = createTrayController({
      createTray: deps.createTray,
      buildMenu: deps.buildMenu,
      lan,
      text,
      startAtLogin: () => (canLogin ? app.getLoginItemSettings().openAtLogin : undefined),
      actions: {
        open: showWindow,
        setSharing: (enabled) => void lanActions.setSharing(enabled),
        copyAddress: () => void lanActions.copyAddress(),
        showQrCode: () => void lanActions.showQrCode(),
        ...(canLogin
          ? {
              setStartAtLogin: (enabled: boolean) => {
                app.setLoginItemSettings({ openAtLogin: enabled });
                void tray?.refresh();
              },
            }
          : {}),
        quit: () => app.quit(),
      },
    });
    await tray.refresh();

    const route = updateRoute({
      app,
      platform: deps.platform,
      env: deps.env,
      packageType: deps.packageType ?? (() => undefined),
      folders: { dataDir, updateCache: updateCacheDir(deps.platform, deps.env, deps.homeDir ?? os.homedir()) },
    });
    updates = setupAutoUpdates({
      route,
      updater: deps.updater,
      dialog: deps.dialog,
      log,
      beforeRestart: stop,
      // Offline (PARLEY_OFFLINE or the admin switch): no update check reaches the feed.
      allowed: async () => !(await running.services.offline.status()).offline,
      // A failed install leaves the previous version in place: start it again (the service was stopped for the installer).
      relaunch: () => {
        app.relaunch();
        app.exit(0);
      },
      text,
    });
    return { server: running, window: () => win, updatesEnabled: updates.enabled };
  })();

  return { ready };
}
