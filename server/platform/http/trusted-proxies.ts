import net from 'node:net';

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) as `10.0.0.1`. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function parseCidr(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined) return undefined;
  const version = net.isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(max)) || prefix < 0 || prefix > max) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** True for an IP address or a CIDR range such as `10.0.0.0/8` or `::1/128`. */
export function isValidCidr(entry: string): boolean {
  return parseCidr(entry) !== undefined;
}

/** A set of addresses and ranges (PARLEY_TRUSTED_PROXIES). */
export interface AddressSet {
  /** True when `address` (as a socket reports it) is in one of the ranges. */
  has(address: string | undefined): boolean;
  readonly size: number;
}

/** Builds the set of trusted proxy addresses from a validated CIDR list. */
export function addressSet(entries: readonly string[]): AddressSet {
  const list = new net.BlockList();
  for (const entry of entries) {
    const cidr = parseCidr(entry);
    if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return {
    size: entries.length,
    has(address) {
      if (!address || entries.length === 0) return false;
      const plain = plainAddress(address);
      const version = net.isIP(plain);
      return version !== 0 && list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
