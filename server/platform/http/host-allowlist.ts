import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import os from 'node:os';
import type { RequestHandler } from 'express';
import { HttpError } from './errors';

/**
 * A `Host` header value as RFC 9110 allows it: a DNS name or IPv4 address, or an IPv6 address in
 * brackets, then an optional port of 1 to 5 digits. Nothing else: no user info (`a:b@evil`), no
 * path, no spaces.
 */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?))(?::(\d{1,5}))?$/;

/**
 * The host name of a `Host` header value, lower-cased and without a trailing dot (`[::1]:8080` →
 * `::1`, `Example.lan.:80` → `example.lan`); undefined when the value is not a well-formed host
 * and port (`localhost:x@evil.example`, `localhost:99999`, an address in brackets that is not IPv6).
 */
export function hostnameOf(hostHeader: string): string | undefined {
  const match = HOST_HEADER.exec(hostHeader.trim().toLowerCase());
  if (!match) return undefined;
  const [, ipv6, name, port] = match;
  if (port !== undefined && Number(port) > 65_535) return undefined;
  if (ipv6 !== undefined) return isIPv6(ipv6) ? ipv6 : undefined;
  return name!.replace(/\.$/, '');
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
  if (!['0.0.0.0', '::', ''].includes(options.bindHost)) fixed.add(options.bindHost.replace(/^\[|\]$/g, '').toLowerCase());
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
      if (name === undefined) return false;
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

/** The answer to a `Host` header that is not a host and port at all. */
export function malformedHost(): HttpError {
  return new HttpError(400, 'MALFORMED_HOST', 'The Host header is not a host name or address with an optional port');
}

/** Refuses requests whose `Host` is not one of the service's own names (DNS rebinding). */
export function requireKnownHost(allowlist: HostAllowlist): RequestHandler {
  return (req, _res, next) => {
    const host = req.headers.host;
    if (host !== undefined && host !== '' && hostnameOf(host) === undefined) return next(malformedHost());
    if (!allowlist.allows(host)) return next(misdirected());
    next();
  };
}

/** The same check for requests that never reach Express (socket.io handshakes). */
export function hostAllowed(allowlist: HostAllowlist, req: IncomingMessage): boolean {
  return allowlist.allows(req.headers.host);
}
