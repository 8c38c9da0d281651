import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardWebContents, isAppUrl, isSafeExternalUrl, openExternal } from './navigation';
import { FakeShell, FakeWebContents, recordingLog } from './testing/fake-electron';

const ORIGIN = 'http://127.0.0.1:41234';

describe('frames and links of the app', () => {
  it('downloads the app\'s own links in the window and sends other web links to the browser', () => {
    const contents = new FakeWebContents();
    const shell = new FakeShell();
    guardWebContents(contents, () => ORIGIN, (url) => shell.openExternal(url));
    expect(contents.openHandler?.({ url: `${ORIGIN}/api/v1/files/f1/content` })).toEqual({ action: 'deny' });
    expect(contents.downloads).toEqual([`${ORIGIN}/api/v1/files/f1/content`]);
    contents.openHandler?.({ url: 'https://example.com/paper.pdf' });
    expect(shell.opened).toEqual(['https://example.com/paper.pdf']);
    expect(contents.downloads).toHaveLength(1);
  });

  it('stops a frame inside the page from navigating away from the service', () => {
    const contents = new FakeWebContents();
    guardWebContents(contents, () => ORIGIN, async () => undefined);
    const frame = (url: string) => {
      let prevented = false;
      contents.emit('will-frame-navigate', { url, isMainFrame: false, preventDefault: () => (prevented = true) });
      return prevented;
    };
    expect(frame('https://evil.example/')).toBe(true);
    expect(frame('data:text/html,<script>1</script>')).toBe(true);
    expect(frame(`${ORIGIN}/s/share1`)).toBe(false);
  });
});

describe('navigation lock', () => {
  it('lets the window move between pages of the local service', () => {
    for (const url of [`${ORIGIN}/`, `${ORIGIN}/c/abc?x=1#top`, `${ORIGIN}/admin/settings`, 'HTTP://127.0.0.1:41234/chat']) {
      expect(isAppUrl(url, ORIGIN), url).toBe(true);
    }
  });

  it('refuses everything else, including look-alikes of the local service', () => {
    const hostile = [
      'file:///etc/passwd',
      'file://127.0.0.1:41234/etc/passwd',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      `blob:${ORIGIN}/6d1c2b3a-0000-4000-8000-000000000000`,
      'http://127.0.0.1:41235/',
      'http://127.0.0.1/',
      'https://127.0.0.1:41234/',
      'ws://127.0.0.1:41234/',
      'http://localhost:41234/',
      'http://127.0.0.1.evil.example:41234/',
      'http://127.0.0.1:41234@evil.example/',
      'http://user:pass@127.0.0.1:41234/',
      'http://evil.example/?http://127.0.0.1:41234/',
      'http://0.0.0.0:41234/',
      'http://[::1]:41234/',
      'chrome://settings',
      'devtools://devtools/bundled/inspector.html',
      'about:blank',
      '//127.0.0.1:41234/',
      '',
      'not a url',
    ];
    for (const url of hostile) expect(isAppUrl(url, ORIGIN), url).toBe(false);
  });

  it('never accepts a URL whose host differs from the service, whatever the path', () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        const parsed = new URL(url);
        if (parsed.origin === ORIGIN) return;
        expect(isAppUrl(url, ORIGIN)).toBe(false);
      }),
    );
  });

  it('opens only web links in the system browser', () => {
    const shell = new FakeShell();
    const open = (u: string) => shell.openExternal(u);
    expect(openExternal('https://example.com/docs', open)).toBe(true);
    expect(openExternal('http://intranet.local/page', open)).toBe(true);
    for (const bad of ['file:///C:/Windows/System32/calc.exe', 'javascript:alert(1)', 'smb://server/share', 'ms-settings:', 'vscode://file/etc/passwd', 'data:,x', 'mailto:a@b.c', 'https://', 'nonsense']) {
      expect(isSafeExternalUrl(bad), bad).toBe(false);
      expect(openExternal(bad, open, recordingLog())).toBe(false);
    }
    expect(shell.opened).toEqual(['https://example.com/docs', 'http://intranet.local/page']);
  });
});

describe('guarded web contents', () => {
  function guarded(origin: () => string | undefined = () => ORIGIN) {
    const contents = new FakeWebContents();
    const shell = new FakeShell();
    guardWebContents(contents, origin, (u) => shell.openExternal(u), recordingLog());
    return { contents, shell };
  }

  it('keeps in-app navigation and sends web links to the system browser instead of the window', () => {
    const { contents, shell } = guarded();
    expect(contents.navigate(`${ORIGIN}/c/1`)).toBe(false);
    expect(contents.navigate('https://example.com/')).toBe(true);
    expect(contents.navigate('file:///etc/passwd')).toBe(true);
    expect(contents.navigate('http://127.0.0.1:9/')).toBe(true);
    expect(shell.opened).toEqual(['https://example.com/', 'http://127.0.0.1:9/']);
  });

  it('cancels redirects away from the service', () => {
    const { contents, shell } = guarded();
    expect(contents.navigate(`${ORIGIN}/login`, 'will-redirect')).toBe(false);
    expect(contents.navigate('https://phish.example/', 'will-redirect')).toBe(true);
    expect(shell.opened).toEqual([]);
  });

  it('refuses new windows, opening web links in the browser and nothing else', () => {
    const { contents, shell } = guarded();
    expect(contents.openHandler?.({ url: 'https://example.com/a' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://example.com/a']);
  });

  it('never attaches a <webview>', () => {
    const { contents } = guarded();
    const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    contents.emit('will-attach-webview', event);
    expect(event.defaultPrevented).toBe(true);
  });

  it('refuses every navigation before the service has started', () => {
    const { contents } = guarded(() => undefined);
    expect(contents.navigate(`${ORIGIN}/`)).toBe(true);
  });
});
