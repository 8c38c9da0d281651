// Just enough of Electron's main-process API to run the built main/index.js under Node:
// it prints what the shell does (STANDIN lines), loads the UI URL like a window would,
// tries a hostile navigation, then quits.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { get as httpsGet } from 'node:https';

const say = (line) => process.stdout.write(`STANDIN ${line}\n`);
const cancellable = (extra = {}) => {
  const event = { ...extra, defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
  return event;
};

/** GET /health over HTTPS on the LAN port (any certificate): `https <status> <certificate fingerprint>`, or the error code. */
const lanHealth = (port) =>
  new Promise((resolve) => {
    const req = httpsGet({ host: '127.0.0.1', port, path: '/health', rejectUnauthorized: false, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      resolve(`https ${res.statusCode} ${res.socket.getPeerCertificate().fingerprint256}`);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error) => resolve(`error ${error.code ?? error.message}`));
  });

class App extends EventEmitter {
  isPackaged = false;
  getVersion = () => '0.0.0-standin';
  getPreferredSystemLanguages = () => ['en-US'];
  getPath = () => process.env.STANDIN_USER_DATA;
  getAppPath = () => process.cwd();
  requestSingleInstanceLock = () => true;
  whenReady = () => Promise.resolve();
  setLoginItemSettings = () => undefined;
  getLoginItemSettings = () => ({ openAtLogin: false });
  quit() {
    const event = cancellable();
    this.emit('before-quit', event);
    say(`before-quit prevented=${event.defaultPrevented}`);
    if (!event.defaultPrevented) {
      say('quit');
      process.exit(0);
    }
  }
  exit(code = 0) {
    say(`exit ${code}`);
    process.exit(code);
  }
}
export const app = new App();

class WebContents extends EventEmitter {
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
  }
  send() {}
  downloadURL() {}
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.webContents = new WebContents();
    app.emit('web-contents-created', cancellable(), this.webContents);
    const p = options.webPreferences;
    say(`window ${JSON.stringify({ sandbox: p.sandbox, contextIsolation: p.contextIsolation, nodeIntegration: p.nodeIntegration, preloadExists: existsSync(p.preload) })}`);
  }
  async loadURL(url) {
    say(`load ${url}`);
    const origin = new URL(url).origin;
    say(`health ${(await fetch(`${origin}/health`)).status}`);
    if (url !== origin) {
      const handover = await fetch(url, { redirect: 'manual' });
      say(`handover ${handover.status} ${handover.headers.get('location')} cookie=${handover.headers.has('set-cookie')}`);
    }
    if (process.env.STANDIN_LAN_PORT) say(`lan ${await lanHealth(Number(process.env.STANDIN_LAN_PORT))}`);
    const navigation = cancellable({ url: 'https://example.com/' });
    this.webContents.emit('will-navigate', navigation);
    say(`external navigation prevented=${navigation.defaultPrevented}`);
    setTimeout(() => app.quit(), 50);
  }
  show() {}
  focus() {}
  restore() {}
  maximize() {}
  isMinimized = () => false;
  isMaximized = () => false;
  isDestroyed = () => false;
  getNormalBounds = () => ({ x: 0, y: 0, width: 1200, height: 800 });
}

export class Tray extends EventEmitter {
  constructor(icon) {
    super();
    say(`tray icon exists=${icon.exists}`);
  }
  setToolTip() {}
  setContextMenu(menu) {
    say(`tray menu ${menu.items.map((i) => `${i.label ?? '-'}${i.checked ? ' [on]' : ''}`).join('|')}`);
  }
  destroy() {}
}

export const Menu = {
  buildFromTemplate: (items) => ({ items }),
  setApplicationMenu: (menu) => say(`application menu ${menu.items.map((i) => i.label ?? i.role).join('|')}`),
};
export const nativeImage = { createFromPath: (p) => ({ path: p, exists: existsSync(p) }), createFromDataURL: (url) => ({ url }) };
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
export const session = { defaultSession: { setPermissionRequestHandler() {}, setPermissionCheckHandler() {}, setDevicePermissionHandler() {}, on() {}, webRequest: { onHeadersReceived() {} } } };
export const shell = { openExternal: async (url) => say(`open external ${url}`) };
export const dialog = { showMessageBox: async () => ({ response: 1 }), showErrorBox: (title, content) => say(`error box ${title}: ${content}`) };
export const clipboard = { writeText() {} };
export const ipcMain = { handle: (channel) => say(`ipc ${channel}`) };
// Desktop notifications (channel mentions): said, never shown.
export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    say(`notification ${this.options?.title ?? ''}`);
  }
}
/** utilityProcess.fork's shape over a Node child process (its IPC channel stands for parentPort). */
function forkUtility(modulePath, args, options) {
  const child = fork(modulePath, args, { env: options.env, execArgv: options.execArgv ?? [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const proc = new EventEmitter();
  child.on('message', (message) => proc.emit('message', message));
  child.on('exit', (code) => proc.emit('exit', code ?? 0));
  proc.postMessage = (message) => child.connected && child.send(message);
  proc.kill = () => child.kill();
  proc.stderr = child.stderr;
  proc.pid = child.pid;
  return proc;
}
// Helper processes (the built-in runtime) start as Node child processes here, as utilityProcess would.
export const utilityProcess = {
  fork: (modulePath, args = [], options = {}) => {
    say(`utility process ${modulePath}`);
    return forkUtility(modulePath, args, options);
  },
};
export default { app, BrowserWindow, Tray, Menu, nativeImage, screen, session, shell, dialog, clipboard, ipcMain, Notification, utilityProcess };
