// Wiring only: the real Electron objects go into the plain modules of main/ (see shell.ts).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, Notification, screen, session, shell, Tray, utilityProcess } from 'electron';
import { loadExports, qrPngDataUrl, restoreBackup, startServer } from '../server';
import type { ShellLog, UpdaterLike } from './facade';
import { runShell } from './shell';

const here = path.dirname(fileURLToPath(import.meta.url));
const assets = path.join(app.getAppPath(), 'assets');

const log: ShellLog = {
  info: (message) => console.log(`[parley] ${message}`),
  warn: (message) => console.warn(`[parley] ${message}`),
  error: (message) => console.error(`[parley] ${message}`),
};

/** The tray icon: a template image on macOS (follows the menu bar's colour), the app mark elsewhere. */
function trayIcon(): Electron.NativeImage {
  return nativeImage.createFromPath(path.join(assets, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'));
}

/** The OS account's name, for the owner account of a new workspace. */
function ownerName(): string {
  try {
    return os.userInfo().username || 'Owner';
  } catch {
    return 'Owner';
  }
}

runShell({
  app,
  platform: process.platform,
  env: process.env,
  log,
  startServer,
  createWindow: (options) => new BrowserWindow(options),
  workAreas: () => screen.getAllDisplays().map((display) => display.workArea),
  session: () => session.defaultSession,
  shell,
  dialog,
  clipboard,
  ipc: ipcMain,
  createTray: () => new Tray(trayIcon()),
  buildMenu: (items) => Menu.buildFromTemplate(items),
  setApplicationMenu: (menu) => Menu.setApplicationMenu(menu as Electron.Menu),
  preferredLanguages: () => app.getPreferredSystemLanguages(),
  createNotification: Notification.isSupported() ? (options) => new Notification(options) : undefined,
  ownerName: ownerName(),
  // The packaged app refuses ELECTRON_RUN_AS_NODE (fuse off): helper processes start as utility processes.
  utilityProcess,
  qrImage: async (url) => nativeImage.createFromDataURL(await qrPngDataUrl(url)),
  // Loaded only when this run updates (packaged builds), after the window is up.
  updater: async (): Promise<UpdaterLike> => (await loadExports(import('electron-updater'), 'electron-updater', 'autoUpdater')).autoUpdater,
  packageType: () => {
    try {
      return readFileSync(path.join(process.resourcesPath, 'package-type'), 'utf8');
    } catch {
      return undefined;
    }
  },
  restoreBackup: (archive, dataDir) => restoreBackup({ archive, dataDir, force: true }),
  preloadPath: path.join(here, 'preload.cjs'),
  iconPath: process.platform === 'linux' ? path.join(assets, 'icon.png') : undefined,
});

// Ctrl+C in the terminal of `npm start`: quit cleanly (the service closes first).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
