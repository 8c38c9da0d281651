import dns from 'node:dns';
import net from 'node:net';
import { isLoopbackAddress } from '../../server/platform/net/outbound';

/** Every attempt this process made to reach another machine, while counting. */
export interface ConnectionCounter {
  /** `host:port` of TCP (and TLS) connection attempts to anything but loopback. */
  connects: string[];
  /** Host names looked up in DNS (other than localhost). */
  lookups: string[];
  /** Connects and lookups together. */
  readonly total: number;
  stop(): void;
}

const isLocalName = (host: string) => isLoopbackAddress(host) || /^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host);

type ConnectArgs = unknown[];

/** The host and port a Socket#connect call asks for (any of its call forms, Node's internal one too). */
function destination(args: ConnectArgs): { host?: string; port?: unknown; path?: string } {
  let first = args[0];
  if (Array.isArray(first)) first = first[0];
  if (typeof first === 'object' && first !== null) {
    const o = first as { host?: string; port?: unknown; path?: string };
    return { host: o.host ?? (o.path ? undefined : 'localhost'), port: o.port, path: o.path };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

/**
 * A counting fake of the network for in-process tests: every TCP/TLS connection attempt
 * (net.Socket#connect, which http, https, undici and fetch all use) to a host that is not
 * loopback is recorded and failed at once with ECONNREFUSED, and every DNS lookup of a name is
 * recorded and failed with ENOTFOUND. Nothing leaves the machine; nothing waits on a timeout.
 * Worker threads have their own modules and are not counted (Parley asks its guard before
 * handing work to them).
 */
export function countConnections(): ConnectionCounter {
  const connects: string[] = [];
  const lookups: string[] = [];
  const originalConnect = net.Socket.prototype.connect;
  const originalLookup = dns.lookup;
  const originalPromisesLookup = dns.promises.lookup;

  net.Socket.prototype.connect = function patchedConnect(this: net.Socket, ...args: ConnectArgs) {
    const { host, port, path } = destination(args);
    if (path === undefined && host !== undefined && !isLocalName(host)) {
      connects.push(`${host}:${String(port)}`);
      process.nextTick(() => this.destroy(Object.assign(new Error(`connect ECONNREFUSED ${host}:${String(port)} (refused by the test's connection counter)`), { code: 'ECONNREFUSED' })));
      return this;
    }
    return (originalConnect as (...a: ConnectArgs) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const refuseLookup = (hostname: string) => {
    lookups.push(hostname);
    return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (refused by the test's connection counter)`), { code: 'ENOTFOUND', hostname });
  };
  dns.lookup = function patchedLookup(hostname: string, ...rest: unknown[]) {
    if (isLocalName(hostname)) return (originalLookup as (...a: unknown[]) => void)(hostname, ...rest);
    const callback = rest.at(-1) as (error: Error) => void;
    process.nextTick(() => callback(refuseLookup(hostname)));
  } as typeof dns.lookup;
  dns.promises.lookup = (async (hostname: string, ...rest: unknown[]) => {
    if (isLocalName(hostname)) return (originalPromisesLookup as (...a: unknown[]) => Promise<unknown>)(hostname, ...rest);
    throw refuseLookup(hostname);
  }) as typeof dns.promises.lookup;

  return {
    connects,
    lookups,
    get total() {
      return connects.length + lookups.length;
    },
    stop() {
      net.Socket.prototype.connect = originalConnect;
      dns.lookup = originalLookup;
      dns.promises.lookup = originalPromisesLookup;
    },
  };
}
