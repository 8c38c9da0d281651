import net from 'node:net';
import { isValidCidr } from '../../platform/http/trusted-proxies';

/**
 * Ranges a page fetch never connects to unless the admin allows them (WEB_FETCH_ALLOWED_NETWORKS):
 * this machine, the LAN, link-local and cloud-metadata addresses, shared (CGNAT) space,
 * documentation and benchmark ranges, multicast and reserved space.
 */
const BLOCKED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches this machine on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24],
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const BLOCKED_V6: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local, fd00:ec2::254 cloud metadata
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const blocked = new net.BlockList();
for (const [address, prefix] of BLOCKED_V4) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of BLOCKED_V6) blocked.addSubnet(address, prefix, 'ipv6');

/** The 32 bits at `bit` (0 = most significant) of an IPv6 address, as dotted IPv4. */
function embeddedV4(v6: string, bit: number): string {
  const words = expandV6(v6);
  const hi = words[bit / 16]!;
  const lo = words[bit / 16 + 1]!;
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail included). */
function expandV6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((w) => parseInt(w, 16));
}

/** Removes the brackets of an IPv6 URL host (`[::1]`) and any zone id (`fe80::1%eth0`). */
export function bareAddress(host: string): string {
  const inner = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = inner.indexOf('%');
  return zone >= 0 ? inner.slice(0, zone) : inner;
}

/**
 * The IPv4 address an IPv6 address stands for, when it carries one a connection would reach:
 * IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`).
 */
function carriedV4(v6: string): string | undefined {
  const words = expandV6(v6);
  if (words.length !== 8 || words.some((w) => Number.isNaN(w))) return undefined;
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return embeddedV4(v6, 96);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return embeddedV4(v6, 96);
  if (words[0] === 0x2002) return embeddedV4(v6, 16);
  return undefined;
}

/** True when an IP address is in a range page fetches never reach by default. */
export function isNonPublicAddress(address: string): boolean {
  const ip = bareAddress(address);
  const version = net.isIP(ip);
  if (version === 4) return blocked.check(ip, 'ipv4');
  if (version !== 6) return true; // not an address at all: refuse
  const v4 = carriedV4(ip);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  return blocked.check(ip, 'ipv6');
}

/** Which addresses page fetches may connect to. */
export interface AddressPolicy {
  /** True when a connection to `address` is allowed. */
  permits(address: string): boolean;
}

/**
 * Public addresses, plus the networks the admin listed in WEB_FETCH_ALLOWED_NETWORKS (an
 * intranet wiki). An IPv4-mapped or NAT64 address is judged by the IPv4 address it carries.
 */
export function addressPolicy(allowedNetworks: readonly string[]): AddressPolicy {
  const allowed = new net.BlockList();
  for (const entry of allowedNetworks) {
    if (!isValidCidr(entry)) continue;
    const [address = '', prefix] = entry.trim().split('/');
    const family = net.isIP(address) === 4 ? 'ipv4' : 'ipv6';
    allowed.addSubnet(address, prefix === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefix), family);
  }
  const isAllowed = (ip: string): boolean => {
    const version = net.isIP(ip);
    if (version === 4) return allowed.check(ip, 'ipv4');
    if (version !== 6) return false;
    const v4 = carriedV4(ip);
    return allowed.check(ip, 'ipv6') || (v4 !== undefined && allowed.check(v4, 'ipv4'));
  };
  return {
    permits(address) {
      const ip = bareAddress(address);
      if (net.isIP(ip) === 0) return false;
      return !isNonPublicAddress(ip) || (allowedNetworks.length > 0 && isAllowed(ip));
    },
  };
}
