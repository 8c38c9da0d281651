import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installLastResort } from './last-resort';

/** A stand-in for `process`: its events, and the exit code asked for. */
function fakeProcess() {
  const events = new EventEmitter();
  const host = Object.assign(events, { exitCode: undefined as number | undefined, exit: (code: number) => void (host.exitCode = code) });
  return host as typeof host & Pick<NodeJS.Process, 'on' | 'off'>;
}

function recordingLog() {
  const lines: Array<{ level: string; message: string }> = [];
  return { lines, error: (_o: object, message: string) => void lines.push({ level: 'error', message }), fatal: (_o: object, message: string) => void lines.push({ level: 'fatal', message }) };
}

describe('the last resort against errors that escape every handler', () => {
  it('logs an uncaught exception and an unhandled rejection, and keeps the process', () => {
    const host = fakeProcess();
    const log = recordingLog();
    installLastResort(log as never, host);
    host.emit('uncaughtException', new Error('a callback nobody wrapped'));
    host.emit('unhandledRejection', new Error('a promise nobody awaited'));
    expect(log.lines).toEqual([
      { level: 'error', message: 'uncaught exception escaped every handler; the service keeps running' },
      { level: 'error', message: 'unhandled promise rejection escaped every handler; the service keeps running' },
    ]);
    expect(host.exitCode).toBeUndefined();
  });

  it('ends the process after a burst of them, when the state is likely broken', () => {
    const host = fakeProcess();
    const log = recordingLog();
    installLastResort(log as never, host);
    for (let i = 0; i < 21; i += 1) host.emit('uncaughtException', new Error(`failure ${i}`));
    expect(host.exitCode).toBe(1);
    expect(log.lines.at(-1)?.level).toBe('fatal');
  });

  it('removes its handlers when the service stops', () => {
    const host = fakeProcess();
    const remove = installLastResort(recordingLog() as never, host);
    expect(host.listenerCount('uncaughtException')).toBe(1);
    remove();
    expect(host.listenerCount('uncaughtException')).toBe(0);
    expect(host.listenerCount('unhandledRejection')).toBe(0);
  });
});
