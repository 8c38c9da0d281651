import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { applyTimeouts, limitConnections } from './connection-limits';

function fakeSocket(remoteAddress: string) {
  const socket = Object.assign(new EventEmitter(), { remoteAddress, destroyed: false, destroy: () => ((socket.destroyed = true), socket) });
  return socket as unknown as Socket & EventEmitter & { destroyed: boolean };
}

describe('connection limits', () => {
  it('refuses connections from one address past its cap, and admits again once one closes', () => {
    const admit = limitConnections({ perAddress: 3 });
    const first = [1, 2, 3].map(() => fakeSocket('192.168.1.50'));
    expect(first.map((s) => admit(s))).toEqual([true, true, true]);
    const fourth = fakeSocket('::ffff:192.168.1.50');
    expect(admit(fourth)).toBe(false);
    expect(fourth.destroyed).toBe(true);
    expect(admit(fakeSocket('192.168.1.51'))).toBe(true);
    first[0]?.emit('close');
    expect(admit(fakeSocket('192.168.1.50'))).toBe(true);
  });

  it('always serves loopback, so the desktop window keeps working during a flood', () => {
    const admit = limitConnections({ perAddress: 1 });
    for (let i = 0; i < 100; i += 1) expect(admit(fakeSocket(i % 2 ? '127.0.0.1' : '::1'))).toBe(true);
  });

  it('sets header and request timeouts instead of waiting forever for slow clients', () => {
    const server = applyTimeouts(createServer());
    expect(server.headersTimeout).toBeGreaterThan(0);
    expect(server.headersTimeout).toBeLessThanOrEqual(30_000);
    expect(server.requestTimeout).toBeGreaterThan(0);
  });
});
