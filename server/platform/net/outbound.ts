import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { HttpError } from '../http/errors';
import { addressSet, plainAddress, type AddressSet } from '../http/trusted-proxies';

/**
 * What an outbound connection is for; named in refusals and counted by tests. Other kinds may be
 * added by the parts that need them (a string literal is accepted).
 */
export type OutboundKind =
  | 'provider'
  | 'reranker'
  | 'content-extraction'
  | 'chunking-server'
  | 'tool-server'
  | 'mcp-oauth'
  | 'model-download'
  | 'update-check'
  | 'web-search'
  | 'web-fetch'
  | 'voice-download'
  | 'audio'
  | 'image'
  | (string & {});

/** Where offline mode comes from: PARLEY_OFFLINE, or the admin setting (Admin → Network). */
export interface OutboundPolicy {
  /** True while offline; read on every check (the admin setting is cached by the config service). */
  offline(): Promise<boolean> | boolean;
  /** Which switch made it offline, for the refusal's message. */
  reason(): Promise<string> | string;
  /** PARLEY_OFFLINE_ALLOWED_NETWORKS: networks (CIDR) still reachable while offline, besides this machine. */
  allowedNetworks: readonly string[];
}

/** A connection refused because Parley is offline (403 `OFFLINE` where it answers a request). */
export class OutboundRefused extends HttpError {
  constructor(
    readonly kind: OutboundKind,
    readonly host: string,
    why: string,
  ) {
    super(403, 'OFFLINE', `Parley is offline (${why}): it makes no connection to ${host} (${kind}); only this computer is reached while offline.`);
    this.name = 'OutboundRefused';
  }
}

interface Registered {
  policy: OutboundPolicy;
  allowed: AddressSet;
}

/** The running services' policies (one in production; tests may run several in one process). */
const policies = new Set<Registered>();
/** Observers of every allowed or refused check (tests count attempts with them). */
const observers = new Set<(event: { kind: OutboundKind; url: string; allowed: boolean }) => void>();

/**
 * Registers a service's policy; offline when any registered policy says so. Returns the
 * unregister function (called when the service closes).
 */
export function registerOutboundPolicy(policy: OutboundPolicy): () => void {
  const entry: Registered = { policy, allowed: addressSet(policy.allowedNetworks) };
  policies.add(entry);
  return () => void policies.delete(entry);
}

/** Watches every check (kind, URL, allowed): for tests and diagnostics. Returns the stop function. */
export function observeOutbound(observer: (event: { kind: OutboundKind; url: string; allowed: boolean }) => void): () => void {
  observers.add(observer);
  return () => void observers.delete(observer);
}

/** True for an address on this machine: 127.0.0.0/8, ::1 (and their IPv4-mapped forms). */
export function isLoopbackAddress(address: string): boolean {
  const plain = plainAddress(address.replace(/^\[|\]$/g, ''));
  if (net.isIPv4(plain)) return plain.startsWith('127.');
  return net.isIPv6(plain) && (plain === '::1' || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(plain));
}

/** True for a host name that always means this machine (`localhost`, `*.localhost`, RFC 6761). */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** True when a host stays on this machine or in an allowed network; host names are resolved only when networks are allowed. */
async function reachableOffline(host: string, allowed: AddressSet): Promise<boolean> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isLoopbackAddress(bare) || isLocalhostName(bare)) return true;
  if (net.isIP(bare)) return allowed.has(bare);
  // Resolving a name asks the resolver, perhaps outside: only when an allowed network could match.
  if (allowed.size === 0) return false;
  try {
    const addresses = await lookup(bare, { all: true });
    return addresses.length > 0 && addresses.every((a) => isLoopbackAddress(a.address) || allowed.has(a.address));
  } catch {
    return false;
  }
}

function describe(url: string | URL): { href: string; host: string } {
  try {
    const parsed = new URL(String(url));
    return { href: parsed.href, host: parsed.hostname };
  } catch {
    return { href: String(url), host: String(url) };
  }
}

/**
 * THE guard of every outbound connection Parley makes. Call it right before connecting to `url`
 * (a provider, a tool server, a download, a web search…): it resolves when the connection may
 * be made, and throws OutboundRefused (403 `OFFLINE`) while Parley is offline (`PARLEY_OFFLINE=1`
 * or the admin switch), unless the destination is this machine (loopback, `localhost`) or in
 * PARLEY_OFFLINE_ALLOWED_NETWORKS. Client libraries take `outboundFetch(kind)` instead of fetch.
 */
export async function assertOutboundAllowed(kind: OutboundKind, url: string | URL): Promise<void> {
  const { href, host } = describe(url);
  for (const entry of policies) {
    if (!(await entry.policy.offline())) continue;
    if (await reachableOffline(host, entry.allowed)) continue;
    for (const observe of observers) observe({ kind, url: href, allowed: false });
    throw new OutboundRefused(kind, host, await entry.policy.reason());
  }
  for (const observe of observers) observe({ kind, url: href, allowed: true });
}

/** True while any running service is offline (for switches that turn a feature off, like update checks). */
export async function isOffline(): Promise<boolean> {
  for (const entry of policies) if (await entry.policy.offline()) return true;
  return false;
}

/** Headers a redirect to another origin must not carry (as fetch itself drops them). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * A fetch that asks the guard first, for client libraries that take one (openai, ollama, the MCP
 * SDK). While offline it follows redirects itself, so every hop is asked too (credentials are not
 * carried to another origin, as fetch does).
 */
export function outboundFetch(kind: OutboundKind, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    await assertOutboundAllowed(kind, url);
    if ((init?.redirect !== undefined && init.redirect !== 'follow') || !(await isOffline())) return base(input, init);
    if (input instanceof Request) return base(input, { ...init, redirect: 'error' });
    let current = url;
    let request: RequestInit = { ...init, redirect: 'manual' };
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await base(current, request);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location) return response;
      await response.body?.cancel();
      const next = new URL(location, current);
      await assertOutboundAllowed(kind, next);
      const method = (request.method ?? 'GET').toUpperCase();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method !== 'GET' && method !== 'HEAD')) request = { ...request, method: 'GET', body: undefined };
      if (next.origin !== new URL(current).origin) {
        const headers = new Headers(request.headers);
        for (const name of CREDENTIAL_HEADERS) headers.delete(name);
        request = { ...request, headers };
      }
      current = next.href;
    }
    throw new TypeError(`more than 10 redirects from ${url}`);
  };
}

/** The OutboundRefused behind an error a client library wrapped (openai keeps it as the cause), if any. */
export function offlineRefusal(error: unknown): OutboundRefused | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof OutboundRefused) return e;
  }
  return undefined;
}
