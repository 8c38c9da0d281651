import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { lanAddresses, lanUrl } from './lan-addresses';

const entry = (address: string, family: 'IPv4' | 'IPv6', internal = false): os.NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '00:00:00:00:00:00', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as os.NetworkInterfaceInfo;

describe('LAN addresses', () => {
  it('lists external IPv4 addresses and leaves out loopback, IPv6 and self-assigned ones', () => {
    const found = lanAddresses({
      lo: [entry('127.0.0.1', 'IPv4', true), entry('::1', 'IPv6', true)],
      eth0: [entry('203.0.113.7', 'IPv4'), entry('fe80::1', 'IPv6')],
      wlan0: [entry('192.168.1.20', 'IPv4'), entry('169.254.3.4', 'IPv4')],
      docker0: [entry('172.17.0.1', 'IPv4')],
      vpn: [entry('10.8.0.2', 'IPv4')],
    });
    expect(found).toEqual(['192.168.1.20', '10.8.0.2', '172.17.0.1', '203.0.113.7']);
  });

  it('lists an address once even when two interfaces report it', () => {
    expect(lanAddresses({ a: [entry('192.168.0.5', 'IPv4')], b: [entry('192.168.0.5', 'IPv4')] })).toEqual(['192.168.0.5']);
  });

  it('is empty on a machine without a network', () => {
    expect(lanAddresses({ lo: [entry('127.0.0.1', 'IPv4', true)] })).toEqual([]);
    expect(lanAddresses({})).toEqual([]);
  });

  it('builds the URL colleagues type', () => {
    expect(lanUrl('192.168.1.20', 8765)).toBe('http://192.168.1.20:8765');
    expect(lanUrl('fd00::2', 8765)).toBe('http://[fd00::2]:8765');
  });
});
