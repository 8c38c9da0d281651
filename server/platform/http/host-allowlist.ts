import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import type { RequestHandler } from 'express';
import { HttpError } from './errors';

/** The host name of a `Host` header value (`[::1]:8080` → `::1`, `Example.lan:80` → `example.lan`). */
export function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  const colon = value.lastIndexOf(':');
  return (colon >= 0 && value.indexOf(':') === colon ? value.slice(0, colon) : value).replace(/\.$/, '');
}

export interface HostAllowlistOptions {
  /** The address the main listener is bound to (a wildcard adds every interface address). */
  bindHost: string;
  /** PARLEY_PUBLIC_URL origins. */
  publicUrls: readonly string[];
  /** The machine's interfaces (tests pass their own). */
  interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  /** The machine's own name (reached through the office DNS or mDNS). */
  hostname?: () => string;
}

/**
 * The host names the service answers to: `localhost`, the listeners' own addresses (every
 * interface address, since the LAN listener binds them all), the machine's name and the host
 * names of PARLEY_PUBLIC_URL. Anything else is a name someone else controls, which is how a web
 * page rebinds its own name to 127.0.0.1 and talks to the service as if it were the owner.
 */
export function createHostAllowlist(options: HostAllowlistOptions) {
  const interfaces = options.interfaces ?? os.networkInterfaces;
  const machineName = options.hostname ?? os.hostname;
  const fixed = new Set(['localhost', '127.0.0.1', '::1']);
  if (!['0.0.0.0', '::', ''].includes(options.bindHost)) fixed.add(hostnameOf(options.bindHost.includes(':') ? `[${options.bindHost}]` : options.bindHost));
  for (const url of options.publicUrls) fixed.add(new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase());

  let dynamic = new Set<string>();
  let readAt = 0;
  const refresh = () => {
    const next = new Set<string>();
    for (const entries of Object.values(interfaces())) for (const entry of entries ?? []) next.add(entry.address.toLowerCase());
    const name = machineName().toLowerCase();
    next.add(name);
    if (!name.includes('.')) next.add(`${name}.local`);
    dynamic = next;
    readAt = Date.now();
  };

  return {
    /** True when a request with this `Host` header may be served. A missing header (HTTP/1.0 tools) is allowed. */
    allows(hostHeader: string | undefined): boolean {
      if (hostHeader === undefined || hostHeader === '') return true;
      const name = hostnameOf(hostHeader);
      if (fixed.has(name)) return true;
      // Addresses change when the laptop moves between networks: re-read them at most once a second on a miss.
      if (Date.now() - readAt > 1_000 || readAt === 0) refresh();
      return dynamic.has(name);
    },
  };
}
export type HostAllowlist = ReturnType<typeof createHostAllowlist>;

/** The answer to a request addressed to a name the service does not answer to. */
export function misdirected(): HttpError {
  return new HttpError(421, 'UNKNOWN_HOST', "This Parley service does not answer to that host name; add it to PARLEY_PUBLIC_URL if people reach it by this name");
}

/** Refuses requests whose `Host` is not one of the service's own names (DNS rebinding). */
export function requireKnownHost(allowlist: HostAllowlist): RequestHandler {
  return (req, _res, next) => {
    if (!allowlist.allows(req.headers.host)) return next(misdirected());
    next();
  };
}

/** The same check for requests that never reach Express (socket.io handshakes). */
export function hostAllowed(allowlist: HostAllowlist, req: IncomingMessage): boolean {
  return allowlist.allows(req.headers.host);
}
