import os from 'node:os';

/** The shape of `os.networkInterfaces()`, so tests can pass their own. */
export type NetworkInterfaces = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

/** Link-local (169.254/16) addresses are self-assigned when DHCP failed: nobody can reach them reliably. */
const LINK_LOCAL = /^169\.254\./;

/**
 * This machine's LAN IPv4 addresses: every external, non-link-local IPv4 address, sorted with
 * private ranges (192.168/16, 10/8, 172.16/12) first, since those are what office networks use.
 */
export function lanAddresses(interfaces: NetworkInterfaces = os.networkInterfaces()): string[] {
  const found = new Set<string>();
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      // Node 18.0–18.3 reported family as a number; accept both.
      const family = entry.family as string | number;
      if ((family === 'IPv4' || family === 4) && !entry.internal && !LINK_LOCAL.test(entry.address)) found.add(entry.address);
    }
  }
  return [...found].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }));
}

function rank(address: string): number {
  if (address.startsWith('192.168.')) return 0;
  if (address.startsWith('10.')) return 1;
  if (/^172\.(1[6-9]|2\d|3[01])\./.test(address)) return 2;
  return 3;
}

/** The URL a colleague types for `address` (`https` unless sharing runs over plain HTTP). */
export function lanUrl(address: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  return `${scheme}://${address.includes(':') ? `[${address}]` : address}:${port}`;
}
