import { describe, expect, it } from 'vitest';
import { addressPolicy, isNonPublicAddress } from './address-policy';

describe('which addresses a page fetch may reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback range'],
    ['0.0.0.0', 'this host'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00:ec2::254', 'cloud metadata over IPv6'],
    ['fc12:3456::1', 'unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:c0a8:0101::1', '6to4 of 192.168.1.1'],
    ['[::1]', 'bracketed URL form'],
    ['not-an-address', 'not an address at all'],
  ])('refuses %s (%s)', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
    expect(addressPolicy([]).permits(address)).toBe(false);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34', '64:ff9b::5db8:d822', '172.32.0.1', '100.128.0.1'])('allows the public address %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
    expect(addressPolicy([]).permits(address)).toBe(true);
  });

  it('allows the networks the admin listed, and only those', () => {
    const policy = addressPolicy(['10.20.0.0/16', '127.0.0.2/32', 'fd12::/16']);
    expect(policy.permits('10.20.5.6')).toBe(true);
    expect(policy.permits('::ffff:10.20.5.6')).toBe(true);
    expect(policy.permits('127.0.0.2')).toBe(true);
    expect(policy.permits('fd12:1::5')).toBe(true);
    expect(policy.permits('10.21.0.1')).toBe(false);
    expect(policy.permits('127.0.0.1')).toBe(false);
    expect(policy.permits('169.254.169.254')).toBe(false);
  });

  it('ignores entries that are not networks', () => {
    const policy = addressPolicy(['intranet.local', '10.0.0.0/99']);
    expect(policy.permits('10.0.0.1')).toBe(false);
  });
});
