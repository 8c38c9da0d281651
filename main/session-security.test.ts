import { describe, expect, it } from 'vitest';
import { FALLBACK_CSP, isPermissionAllowed, secureSession, withContentSecurityPolicy } from './session-security';
import { FakeSession } from './testing/fake-electron';

const ORIGIN = 'http://127.0.0.1:41234';

describe('session security', () => {
  it('denies camera, microphone, location, notifications and every other permission', async () => {
    const session = new FakeSession();
    secureSession(session, () => ORIGIN);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'midiSysex', 'hid', 'serial', 'usb', 'display-capture', 'clipboard-read', 'unknown']) {
      expect(await session.request(permission, `${ORIGIN}/`), permission).toBe(false);
      expect(session.checkHandler?.({}, permission, ORIGIN), permission).toBe(false);
    }
  });

  it('denies USB, HID and serial devices without showing a picker', () => {
    const session = new FakeSession();
    secureSession(session, () => ORIGIN);
    expect(session.deviceHandler?.({ deviceType: 'usb', origin: ORIGIN })).toBe(false);
    for (const event of ['select-hid-device', 'select-usb-device', 'select-serial-port']) {
      let prevented = false;
      const picked: Array<string | undefined> = [];
      session.emit(event, { preventDefault: () => (prevented = true) }, {}, (id?: string) => picked.push(id));
      expect(prevented, event).toBe(true);
      expect(picked, event).toEqual([undefined]);
    }
  });

  it('lets the app itself copy to the clipboard and go full screen, but no other page', async () => {
    const session = new FakeSession();
    secureSession(session, () => ORIGIN);
    expect(await session.request('clipboard-sanitized-write', `${ORIGIN}/c/1`)).toBe(true);
    expect(await session.request('fullscreen', `${ORIGIN}/`)).toBe(true);
    expect(await session.request('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(isPermissionAllowed('fullscreen', 'http://127.0.0.1:1/', ORIGIN)).toBe(false);
    expect(isPermissionAllowed('fullscreen', `${ORIGIN}/`, undefined)).toBe(false);
  });

  it('adds a content security policy to responses that carry none, and keeps the service policy', () => {
    expect(withContentSecurityPolicy({ 'content-type': ['text/html'] })['Content-Security-Policy']).toEqual([FALLBACK_CSP]);
    const own = withContentSecurityPolicy({ 'Content-Security-Policy': ["default-src 'self'"] });
    expect(own).toEqual({ 'Content-Security-Policy': ["default-src 'self'"] });
    const lower = withContentSecurityPolicy({ 'content-security-policy': ["default-src 'none'"] });
    expect(Object.keys(lower)).toEqual(['content-security-policy']);
    expect(FALLBACK_CSP).toContain("object-src 'none'");
  });

  it('applies the policy to every response the session receives', () => {
    const session = new FakeSession();
    secureSession(session, () => ORIGIN);
    let headers: unknown;
    session.headersListener?.({ url: `${ORIGIN}/`, responseHeaders: {} }, (response) => {
      headers = response.responseHeaders;
    });
    expect(headers).toEqual({ 'Content-Security-Policy': [FALLBACK_CSP] });
  });
});
