import { describe, expect, it } from 'vitest';
import { guarded } from './guarded';

describe('guarded listener callbacks', () => {
  it('log a failure and end what the callback served, instead of throwing into the listener', () => {
    const logged: string[] = [];
    const ended: string[] = [];
    const handler = guarded(
      { error: (_o: object, message: string) => void logged.push(message) } as never,
      'the test listener',
      (socket: string) => {
        throw new TypeError(`cannot serve ${socket}`);
      },
      (socket: string) => void ended.push(socket),
    );
    expect(() => handler('socket-1')).not.toThrow();
    expect(logged).toEqual(['the test listener failed; the connection was closed and the listener goes on']);
    expect(ended).toEqual(['socket-1']);
  });

  it('stay quiet when a recovery finds the connection already gone', () => {
    const handler = guarded({ error: () => undefined } as never, 'x', () => { throw new Error('first'); }, () => { throw new Error('already closed'); });
    expect(() => handler()).not.toThrow();
  });

  it('pass arguments through and do nothing more when the callback succeeds', () => {
    const seen: number[] = [];
    guarded({ error: () => undefined } as never, 'x', (a: number, b: number) => void seen.push(a + b), () => seen.push(-1))(2, 3);
    expect(seen).toEqual([5]);
  });
});
