import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { publicOriginOf } from './public-origin';

const request = (host: string, local = { localAddress: '::ffff:192.168.1.20', localPort: 8765, encrypted: false }) =>
  ({ headers: { host }, socket: local as unknown as Socket }) as IncomingMessage;

describe('the origin absolute URLs are built from', () => {
  it('never takes a forged Host header: the listener address answers instead', () => {
    expect(publicOriginOf(request('evil.example'), [])).toBe('http://192.168.1.20:8765');
    expect(publicOriginOf(request('evil.example', { localAddress: '127.0.0.1', localPort: 8443, encrypted: true }), [])).toBe('https://127.0.0.1:8443');
  });

  it('uses PARLEY_PUBLIC_URL: the one the request named, else the first', () => {
    const urls = ['https://parley.office.example', 'http://chat.office.example:8080'];
    expect(publicOriginOf(request('chat.office.example:8080'), urls)).toBe('http://chat.office.example:8080');
    expect(publicOriginOf(request('evil.example'), urls)).toBe('https://parley.office.example');
  });
});
