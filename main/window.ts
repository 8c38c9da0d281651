import type { BrowserWindowLike, Rectangle, SecureWebPreferences, WindowOptions } from './facade';
import type { ShellState } from './shell-state';

const DEFAULT_SIZE = { width: 1200, height: 800 };
/** How much of a remembered window must still be on a screen to put it back there. */
const MIN_VISIBLE = 100;

/** The web preferences of every Parley window: isolated, sandboxed, no Node in the page. */
export function secureWebPreferences(preload: string, devTools = false): SecureWebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: true,
    devTools,
  };
}

/** True when enough of `bounds` lies on one of the screens' work areas to grab the window. */
export function isOnScreen(bounds: Rectangle, workAreas: Rectangle[]): boolean {
  return workAreas.some((area) => {
    const width = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const height = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return width >= MIN_VISIBLE && height >= MIN_VISIBLE / 2;
  });
}

/** The main window's options: the remembered size and position when still on a screen, else a default size. */
export function mainWindowOptions(preload: string, remembered: ShellState['window'], workAreas: Rectangle[], icon?: string, devTools = false): WindowOptions {
  const place = remembered && isOnScreen(remembered.bounds, workAreas) ? remembered.bounds : undefined;
  return {
    ...(place ? { x: place.x, y: place.y, width: place.width, height: place.height } : DEFAULT_SIZE),
    minWidth: 480,
    minHeight: 360,
    show: false,
    title: 'Parley',
    backgroundColor: '#ffffff',
    ...(icon ? { icon } : {}),
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload, devTools),
  };
}

/** Remembers the window's normal bounds and maximised state when it closes. */
export function rememberWindowState(win: BrowserWindowLike, save: (state: NonNullable<ShellState['window']>) => void): void {
  win.on('close', () => {
    if (win.isDestroyed()) return;
    const b = win.getNormalBounds();
    save({ bounds: { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) }, maximized: win.isMaximized() });
  });
}

/** Brings a window to the front, restoring it if minimised (a second launch, the tray's "Open"). */
export function focusWindow(win: BrowserWindowLike): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
