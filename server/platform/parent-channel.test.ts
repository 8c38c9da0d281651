import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parentChannel } from './parent-channel';

describe('a helper process’s channel to the service', () => {
  it('in an Electron utility process, speaks through process.parentPort (messages wrapped in {data})', () => {
    const port = new EventEmitter() as EventEmitter & { postMessage(message: unknown): void; sent: unknown[] };
    port.sent = [];
    port.postMessage = (message) => port.sent.push(message);
    const proc = Object.assign(new EventEmitter(), { parentPort: port, send: () => { throw new Error('no IPC channel in a utility process'); } }) as unknown as NodeJS.Process;
    const channel = parentChannel(proc);
    const received: unknown[] = [];
    channel.onMessage((message) => received.push(message));
    port.emit('message', { data: { type: 'chat', id: 1 } });
    channel.send({ type: 'ready', gpu: false });
    expect(received).toEqual([{ type: 'chat', id: 1 }]);
    expect(port.sent).toEqual([{ type: 'ready', gpu: false }]);
  });

  it('under Node’s fork, speaks through process.send and ends when the service disconnects', () => {
    const sent: unknown[] = [];
    const events = Object.assign(new EventEmitter(), { send: (message: unknown) => sent.push(message) });
    const channel = parentChannel(events as unknown as NodeJS.Process);
    const received: unknown[] = [];
    let closed = false;
    channel.onMessage((message) => received.push(message));
    channel.onClose(() => {
      closed = true;
    });
    events.emit('message', { type: 'abort', id: 2 });
    events.emit('disconnect');
    channel.send({ type: 'loaded', ids: [] });
    expect(received).toEqual([{ type: 'abort', id: 2 }]);
    expect(sent).toEqual([{ type: 'loaded', ids: [] }]);
    expect(closed).toBe(true);
  });
});
