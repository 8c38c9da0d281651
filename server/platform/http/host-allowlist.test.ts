import { describe, expect, it } from 'vitest';
import { createHostAllowlist, hostnameOf } from './host-allowlist';

const allowlist = () =>
  createHostAllowlist({ bindHost: '127.0.0.1', publicUrls: ['https://parley.office.example'], interfaces: () => ({ eth0: [{ address: '192.168.1.20' } as never] }), hostname: () => 'desk' });

describe('the Host header parser', () => {
  it('reads names, IPv4 and bracketed IPv6 addresses with an optional port', () => {
    expect(hostnameOf('localhost:8080')).toBe('localhost');
    expect(hostnameOf('Example.LAN.:80')).toBe('example.lan');
    expect(hostnameOf('192.168.1.20')).toBe('192.168.1.20');
    expect(hostnameOf('[::1]:8080')).toBe('::1');
    expect(hostnameOf('[FE80::1]')).toBe('fe80::1');
  });

  it('refuses what is not a host and port: user info, bad ports, paths, junk in brackets', () => {
    for (const bad of ['localhost:x@evil.example', 'localhost@evil.example', 'localhost:99999', 'localhost:', 'localhost:80:80', 'localhost/evil', 'local host', '[::1', '[evil.example]', '[::1]x', 'evil.example#localhost', '']) {
      expect(hostnameOf(bad), bad).toBeUndefined();
    }
  });
});

describe('the known-host check', () => {
  it('answers to its own names only', () => {
    const hosts = allowlist();
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:1', 'parley.office.example', '192.168.1.20:8765', 'desk', 'desk.local']) expect(hosts.allows(host), host).toBe(true);
    expect(hosts.allows('evil.example')).toBe(false);
  });

  it('does not take localhost:x@evil.example (a URL parser reads evil.example) for localhost', () => {
    const hosts = allowlist();
    expect(hosts.allows('localhost:x@evil.example')).toBe(false);
    expect(hosts.allows('127.0.0.1:1@evil.example')).toBe(false);
    expect(hosts.allows('localhost:99999')).toBe(false);
  });
});
