import { describe, expect, it } from 'vitest';
import { FakeWindow } from './testing/fake-electron';
import { focusWindow, isOnScreen, mainWindowOptions, rememberWindowState, secureWebPreferences } from './window';

const SCREEN = { x: 0, y: 0, width: 1920, height: 1040 };

describe('main window', () => {
  it('runs the page isolated and sandboxed, without Node', () => {
    const prefs = secureWebPreferences('/app/dist/main/preload.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/dist/main/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(mainWindowOptions('/p.cjs', undefined, [SCREEN]).webPreferences).toEqual(secureWebPreferences('/p.cjs'));
  });

  it('reopens at the remembered size and position', () => {
    const options = mainWindowOptions('/p.cjs', { bounds: { x: 200, y: 150, width: 1000, height: 700 }, maximized: false }, [SCREEN]);
    expect(options).toMatchObject({ x: 200, y: 150, width: 1000, height: 700, show: false });
  });

  it('falls back to a default size when the remembered place is on a screen that is gone', () => {
    const options = mainWindowOptions('/p.cjs', { bounds: { x: 2500, y: 100, width: 800, height: 600 }, maximized: false }, [SCREEN]);
    expect(options.x).toBeUndefined();
    expect(options).toMatchObject({ width: 1200, height: 800 });
    expect(isOnScreen({ x: 1900, y: 100, width: 800, height: 600 }, [SCREEN])).toBe(false);
    expect(isOnScreen({ x: 1900, y: 100, width: 800, height: 600 }, [SCREEN, { x: 1920, y: 0, width: 1280, height: 1024 }])).toBe(true);
  });

  it('saves the normal bounds and maximised state when the window closes', () => {
    const win = new FakeWindow(mainWindowOptions('/p.cjs', undefined, [SCREEN]), []);
    const saved: unknown[] = [];
    rememberWindowState(win, (state) => saved.push(state));
    win.bounds = { x: 10.4, y: 20, width: 900, height: 640.6 };
    win.maximized = true;
    win.close();
    expect(saved).toEqual([{ bounds: { x: 10, y: 20, width: 900, height: 641 }, maximized: true }]);
  });

  it('brings a minimised window back to the front', () => {
    const win = new FakeWindow(mainWindowOptions('/p.cjs', undefined, [SCREEN]), []);
    win.minimized = true;
    focusWindow(win);
    expect(win).toMatchObject({ minimized: false, visible: true, focused: 1 });
  });
});
