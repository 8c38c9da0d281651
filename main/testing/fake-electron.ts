// Small stand-ins for the Electron objects of main/facade.ts, recording what the shell does.
import type {
  AppLike, BrowserWindowLike, ClipboardLike, DialogLike, MenuItemOptions, MessageBoxOptions, Rectangle, SessionLike, ShellLike, ShellLog, TrayLike,
  UpdaterLike, UtilityForkOptions, UtilityProcessLike, UtilityProcessModuleLike, WebContentsLike, WindowOpenDetails, WindowOptions,
} from '../facade';
import { PassThrough } from 'node:stream';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners of every event shape, as in Node's EventEmitter
type Listener = (...args: any[]) => unknown;

/** A minimal event emitter with on/once/emit, like Electron's. */
export class Emitter {
  private listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== wrapped));
      return listener(...args);
    };
    return this.on(event, wrapped);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  count(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

/** A cancellable event; `url` for navigation events. */
export function fakeEvent<T extends object = object>(extra?: T): T & { preventDefault(): void; defaultPrevented: boolean } {
  const event = { ...(extra as T), defaultPrevented: false, preventDefault: () => undefined };
  event.preventDefault = () => {
    event.defaultPrevented = true;
  };
  return event;
}

export class FakeWebContents extends Emitter implements WebContentsLike {
  openHandler?: (details: WindowOpenDetails) => { action: 'deny' };
  sent: Array<{ channel: string; args: unknown[] }> = [];
  setWindowOpenHandler(handler: (details: WindowOpenDetails) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  downloads: string[] = [];
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  downloadURL(url: string): void {
    this.downloads.push(url);
  }
  /** Simulates a page navigating to `url`; returns whether the shell cancelled it. */
  navigate(url: string, kind: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    const event = fakeEvent({ url });
    this.emit(kind, event);
    return event.defaultPrevented;
  }
}

export class FakeWindow extends Emitter implements BrowserWindowLike {
  readonly webContents = new FakeWebContents();
  loaded: string[] = [];
  visible = false;
  focused = 0;
  minimized = false;
  maximized = false;
  destroyed = false;
  bounds: Rectangle;
  constructor(
    readonly options: WindowOptions,
    private readonly timeline: string[],
  ) {
    super();
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height };
  }
  async loadURL(url: string): Promise<void> {
    this.timeline.push(`window:load ${url}`);
    this.loaded.push(url);
    this.emit('ready-to-show');
  }
  show(): void {
    this.visible = true;
  }
  focus(): void {
    this.focused += 1;
  }
  restore(): void {
    this.minimized = false;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds(): Rectangle {
    return this.bounds;
  }
  /** The user closes the window. */
  close(): void {
    this.emit('close');
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeApp extends Emitter implements AppLike {
  isPackaged = false;
  hasLock = true;
  quitRequests = 0;
  quitted = false;
  exitCode: number | undefined;
  loginItem = { openAtLogin: false };
  constructor(
    private readonly userData: string,
    private readonly timeline: string[],
  ) {
    super();
  }
  getVersion(): string {
    return '1.2.3';
  }
  getPath(_name: 'userData'): string {
    return this.userData;
  }
  getAppPath(): string {
    return '/app';
  }
  requestSingleInstanceLock(): boolean {
    return this.hasLock;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  /** Like Electron: before-quit may cancel; otherwise the app quits. */
  quit(): void {
    this.quitRequests += 1;
    const event = fakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented && !this.quitted) {
      this.quitted = true;
      this.timeline.push('app:quit');
    }
  }
  relaunches = 0;
  relaunch(): void {
    this.relaunches += 1;
    this.timeline.push('app:relaunch');
  }
  exit(code?: number): void {
    this.exitCode = code ?? 0;
    this.timeline.push(`app:exit ${this.exitCode}`);
  }
  setLoginItemSettings(settings: { openAtLogin: boolean }): void {
    this.loginItem = { ...settings };
  }
  getLoginItemSettings(): { openAtLogin: boolean } {
    return this.loginItem;
  }
}

export class FakeTray extends Emitter implements TrayLike {
  tooltip = '';
  menu: MenuItemOptions[] = [];
  destroyed = false;
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: unknown): void {
    this.menu = menu as MenuItemOptions[];
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** Clicks the menu item whose label starts with `label`. */
  click(label: string): void {
    const item = this.menu.find((i) => i.label?.startsWith(label));
    if (!item?.click) throw new Error(`no clickable tray item '${label}' in ${this.menu.map((i) => i.label).join(', ')}`);
    item.click();
  }
}

export class FakeDialog implements DialogLike {
  boxes: MessageBoxOptions[] = [];
  errors: Array<{ title: string; content: string }> = [];
  /** The button index the "user" picks in the next message boxes. */
  answer = 0;
  async showMessageBox(options: MessageBoxOptions): Promise<{ response: number }> {
    this.boxes.push(options);
    return { response: this.answer };
  }
  showErrorBox(title: string, content: string): void {
    this.errors.push({ title, content });
  }
}

export class FakeUpdater extends Emitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  checks = 0;
  installs = 0;
  /** How the next install goes wrong, like electron-updater's: it throws, or it reports an error event. */
  failInstall: 'throw' | 'error' | undefined;
  constructor(private readonly timeline: string[] = []) {
    super();
  }
  async checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    return null;
  }
  quitAndInstall(): void {
    this.installs += 1;
    this.timeline.push('updater:install');
    if (this.failInstall === 'throw') throw new Error('spawn installer EACCES');
    if (this.failInstall === 'error') queueMicrotask(() => this.emit('error', new Error('Could not get code signature for running application')));
  }
}

export class FakeSession extends Emitter implements SessionLike {
  deviceHandler?: (details: unknown) => boolean;
  spellChecker = true;
  setSpellCheckerEnabled(enable: boolean): void {
    this.spellChecker = enable;
  }
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void {
    this.deviceHandler = handler;
  }
  requestHandler?: Parameters<SessionLike['setPermissionRequestHandler']>[0];
  checkHandler?: Parameters<SessionLike['setPermissionCheckHandler']>[0];
  headersListener?: Parameters<SessionLike['webRequest']['onHeadersReceived']>[0];
  setPermissionRequestHandler(handler: NonNullable<FakeSession['requestHandler']>): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: NonNullable<FakeSession['checkHandler']>): void {
    this.checkHandler = handler;
  }
  webRequest = {
    onHeadersReceived: (listener: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = listener;
    },
  };
  /** Asks the request handler for `permission` from `url`. */
  request(permission: string, url: string): Promise<boolean> {
    return new Promise((resolve) => this.requestHandler?.({}, permission, resolve, { requestingUrl: url }));
  }
}

/** Records opened links; the shell's `openExternal`. */
export class FakeShell implements ShellLike {
  opened: string[] = [];
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  }
}

export class FakeClipboard implements ClipboardLike {
  text = '';
  writeText(text: string): void {
    this.text = text;
  }
}

/** Collects log lines by level. */
export function recordingLog(): ShellLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

/** A process started by the fake utilityProcess: records what the parent posts; `reply` and `exit` act as the child. */
export class FakeUtilityProcess extends Emitter implements UtilityProcessLike {
  readonly stderr = new PassThrough();
  posted: unknown[] = [];
  killed = 0;
  constructor(
    readonly modulePath: string,
    readonly args: string[],
    readonly options: UtilityForkOptions,
  ) {
    super();
  }
  postMessage(message: unknown): void {
    this.posted.push(structuredClone(message));
  }
  kill(): boolean {
    this.killed++;
    queueMicrotask(() => this.emit('exit', 0));
    return true;
  }
  /** The child posts `message` to its parent (process.parentPort.postMessage). */
  reply(message: unknown): void {
    this.emit('message', structuredClone(message));
  }
}

/** Electron's utilityProcess module: every fork is kept for inspection. */
export class FakeUtilityProcessModule implements UtilityProcessModuleLike {
  started: FakeUtilityProcess[] = [];
  onFork?: (child: FakeUtilityProcess) => void;
  fork(modulePath: string, args: string[], options: UtilityForkOptions): FakeUtilityProcess {
    const child = new FakeUtilityProcess(modulePath, args, options);
    this.started.push(child);
    this.onFork?.(child);
    return child;
  }
}
