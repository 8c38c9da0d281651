import type { ResponseHeaders, SessionLike } from './facade';
import { isAppUrl } from './navigation';

/** The only permissions a page of the app gets: copying to the clipboard and full screen. */
const GRANTED = new Set(['clipboard-sanitized-write', 'fullscreen']);

/** Whether `permission` asked for by `requestingUrl` is granted: denied unless listed and from the app itself. */
export function isPermissionAllowed(permission: string, requestingUrl: string | undefined, origin: string | undefined): boolean {
  return GRANTED.has(permission) && origin !== undefined && requestingUrl !== undefined && isAppUrl(requestingUrl, origin);
}

/** The policy the shell adds when a response of the service carries none. */
export const FALLBACK_CSP =
  "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'";

/** Response headers with a content security policy: the service's own if it sent one, else FALLBACK_CSP. */
export function withContentSecurityPolicy(headers: Record<string, string[]> | undefined): ResponseHeaders {
  const out: ResponseHeaders = { ...headers };
  const hasPolicy = Object.keys(out).some((name) => name.toLowerCase() === 'content-security-policy');
  if (!hasPolicy) out['Content-Security-Policy'] = [FALLBACK_CSP];
  return out;
}

/** Denies every permission request and check except the few the app needs, and enforces a CSP. */
export function secureSession(session: SessionLike, origin: () => string | undefined): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details?.requestingUrl, origin()));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin, origin()));
  // No page gets a USB, HID or serial device: the requests are denied and no picker is shown.
  session.setDevicePermissionHandler(() => false);
  for (const event of ['select-hid-device', 'select-usb-device', 'select-serial-port'] as const) {
    session.on(event, (e, _details, callback) => {
      e.preventDefault();
      callback();
    });
  }
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}
