import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True when the request carries its own credential (Bearer or API key) rather than relying on the cookie. */
function carriesExplicitCredential(req: IncomingMessage): boolean {
  return typeof req.headers.authorization === 'string' || typeof req.headers['x-api-key'] === 'string';
}

/**
 * Whether a browser request comes from a page of this very origin, by the algorithm of Go's
 * CrossOriginProtection: `Sec-Fetch-Site: same-origin` (or `none`, typed by the user) passes and
 * any other value fails; without it, an `Origin` whose host equals `Host` passes; a request with
 * neither header is not from a browser and cannot be forged by a web page. Origins listed in
 * `trustedOrigins` (PARLEY_CORS_ORIGINS, PARLEY_PUBLIC_URL) pass too. Another port on the same
 * host is another origin.
 */
export function isSameOrigin(req: IncomingMessage, trustedOrigins: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && trustedOrigins.has(origin.toLowerCase())) return true;
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  if (typeof origin !== 'string') return true;
  if (origin === 'null') return false;
  try {
    return new URL(origin).host.toLowerCase() === String(req.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

function refusal() {
  return forbidden('Cross-origin request refused: this action must come from a Parley page of this address, or carry a Bearer token or API key', 'CROSS_ORIGIN_REQUEST');
}

/**
 * State changes authenticated by the session cookie need a same-origin proof. Requests with a
 * Bearer token or API key are not affected (a web page cannot make a browser add those). The
 * GET paths in `stateChangingGets` (signing out) are checked too: `<img src>` on another port
 * of the same host would otherwise send the cookie along.
 */
export function requireSameOriginForCookies(trustedOrigins: readonly string[], stateChangingGets: readonly string[] = []): RequestHandler {
  const trusted = new Set(trustedOrigins.map((o) => o.toLowerCase()));
  const gets = new Set(stateChangingGets);
  return (req, _res, next) => {
    const checked = !SAFE_METHODS.has(req.method) || (req.method === 'GET' && gets.has(req.path));
    if (!checked || carriesExplicitCredential(req)) return next();
    if (!isSameOrigin(req, trusted)) return next(refusal());
    next();
  };
}
