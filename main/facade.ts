/**
 * The slice of Electron the shell uses, as plain interfaces. main/index.ts passes the real
 * Electron objects (the type checker proves they fit); tests pass small fakes, so every
 * behaviour of the shell runs under plain Node.
 */

/** An Electron event that can be cancelled. */
export interface ShellEvent {
  preventDefault(): void;
}

/** A navigation or redirect about to happen in a web page. */
export interface NavigationEvent extends ShellEvent {
  url: string;
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface AppLike {
  readonly isPackaged: boolean;
  getVersion(): string;
  getPath(name: 'userData'): string;
  getAppPath(): string;
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: ShellEvent) => void): unknown;
  on(event: 'web-contents-created', listener: (event: ShellEvent, contents: WebContentsLike) => void): unknown;
  quit(): void;
  exit(code?: number): void;
  /** Starts the app again when this process ends (the same executable: after a failed update, the previous version). */
  relaunch(): void;
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
  getLoginItemSettings(): { openAtLogin: boolean };
}

/** What window.open and target=_blank links ask for. */
export interface WindowOpenDetails {
  url: string;
}

export interface WebContentsLike {
  on(event: 'will-navigate', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-redirect', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: ShellEvent) => void): unknown;
  /** Any frame (also iframes) about to navigate. */
  on(event: 'will-frame-navigate', listener: (event: NavigationEvent & { isMainFrame: boolean }) => void): unknown;
  /** Downloads `url` with the window's session (its cookies), into the downloads folder. */
  downloadURL(url: string): void;
  setWindowOpenHandler(handler: (details: WindowOpenDetails) => { action: 'deny' }): void;
  send(channel: string, ...args: unknown[]): void;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<unknown>;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): Rectangle;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  on(event: 'session-end', listener: () => void): unknown;
}

/** The options the shell gives a new window (a subset of BrowserWindowConstructorOptions). */
export interface WindowOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  icon?: string;
  autoHideMenuBar: boolean;
  webPreferences: SecureWebPreferences;
}

/** The web preferences every Parley window runs with. */
export interface SecureWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  navigateOnDragDrop: false;
  safeDialogs: true;
  spellcheck: boolean;
  /** Developer tools: only when running from source, never in a packaged build. */
  devTools: boolean;
}

/** Headers as Electron's webRequest hands them over. */
export type ResponseHeaders = Record<string, string[] | string>;

export interface SessionLike {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string, requestingOrigin: string) => boolean): void;
  /** WebHID, WebUSB and Web Serial device access. */
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
  /** Turns spell checking (and, on Windows and Linux, its dictionary downloads) on or off. */
  setSpellCheckerEnabled(enable: boolean): void;
  on(event: 'select-hid-device' | 'select-usb-device' | 'select-serial-port', listener: (event: ShellEvent, details: unknown, callback: (deviceId?: string) => void) => void): unknown;
  webRequest: {
    onHeadersReceived(
      listener: (details: { url: string; responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders?: ResponseHeaders }) => void) => void,
    ): void;
  };
}

/** One entry of a tray or application menu. */
export interface MenuItemOptions {
  label?: string;
  type?: 'normal' | 'separator' | 'checkbox';
  /** A built-in item of the application menu (edit commands, zoom, quit…). */
  role?: 'appMenu' | 'editMenu' | 'windowMenu' | 'quit' | 'reload' | 'toggleDevTools' | 'resetZoom' | 'zoomIn' | 'zoomOut' | 'togglefullscreen';
  submenu?: MenuItemOptions[];
  checked?: boolean;
  enabled?: boolean;
  visible?: boolean;
  click?: () => void;
}

export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface MessageBoxOptions {
  type?: 'none' | 'info' | 'error' | 'question' | 'warning';
  title?: string;
  message: string;
  detail?: string;
  buttons?: string[];
  defaultId?: number;
  cancelId?: number;
  icon?: unknown;
}

export interface DialogLike {
  showMessageBox(options: MessageBoxOptions): Promise<{ response: number }>;
  showErrorBox(title: string, content: string): void;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
}

export interface ClipboardLike {
  writeText(text: string): void;
}

/** electron-updater's autoUpdater, as far as the shell drives it. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
  on(event: 'update-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Where the shell writes what it does (console in the app; a recorder in tests). */
export interface ShellLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Electron's utilityProcess.fork options, as far as the shell uses them. */
export interface UtilityForkOptions {
  env: NodeJS.ProcessEnv;
  execArgv: string[];
  /** stdin must be 'ignore'; stdout and stderr 'pipe', 'ignore' or 'inherit'. */
  stdio: Array<'pipe' | 'ignore' | 'inherit'>;
  serviceName: string;
}

/** A process started by Electron's utilityProcess.fork: MessagePort-style messages. */
export interface UtilityProcessLike {
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'spawn', listener: () => void): unknown;
}

/** Electron's `utilityProcess` module: starts Node processes with the app's own binary, no RunAsNode fuse needed. */
export interface UtilityProcessModuleLike {
  fork(modulePath: string, args: string[], options: UtilityForkOptions): UtilityProcessLike;
}
