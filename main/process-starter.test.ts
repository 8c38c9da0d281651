import { describe, expect, it } from 'vitest';
import { utilityProcessStarter } from './process-starter';
import { FakeUtilityProcessModule } from './testing/fake-electron';

const spec = { file: '/app/dist/server/builtin/runtime/llama-runtime.worker.js', execArgv: [], env: { PATH: '/bin', PARLEY_RUNTIME_SETTINGS: '{}', ELECTRON_RUN_AS_NODE: '1' }, name: 'Parley model runtime' };

describe('helper processes started as Electron utility processes', () => {
  it('forks the script with utilityProcess, without ELECTRON_RUN_AS_NODE (the packaged app refuses it), stderr piped', () => {
    const utility = new FakeUtilityProcessModule();
    utilityProcessStarter(utility)(spec);
    expect(utility.started).toHaveLength(1);
    const [child] = utility.started;
    expect(child?.modulePath).toBe(spec.file);
    expect(child?.options.env).toEqual({ PATH: '/bin', PARLEY_RUNTIME_SETTINGS: '{}' });
    expect(child?.options.stdio).toEqual(['ignore', 'ignore', 'pipe']);
    expect(child?.options.serviceName).toBe('Parley model runtime');
  });

  it('carries messages both ways, and stderr, through the MessagePort-style channel', async () => {
    const utility = new FakeUtilityProcessModule();
    const channel = utilityProcessStarter(utility)(spec);
    const child = utility.started[0]!;
    const received: unknown[] = [];
    channel.onMessage((message) => received.push(message));
    channel.send({ type: 'chat', id: 1, messages: [{ role: 'user', content: 'hi' }] });
    child.reply({ type: 'chunk', id: 1, text: 'hel' });
    child.reply({ type: 'chat-done', id: 1 });
    expect(child.posted).toEqual([{ type: 'chat', id: 1, messages: [{ role: 'user', content: 'hi' }] }]);
    expect(received).toEqual([{ type: 'chunk', id: 1, text: 'hel' }, { type: 'chat-done', id: 1 }]);
    const said = new Promise<string>((resolve) => channel.stderr?.on('data', (data: Buffer) => resolve(data.toString())));
    child.stderr.write('GGML_ASSERT failed');
    expect(await said).toBe('GGML_ASSERT failed');
  });

  it('reports the exit once with its code, then drops what is sent and does not kill again', async () => {
    const utility = new FakeUtilityProcessModule();
    const channel = utilityProcessStarter(utility)(spec);
    const child = utility.started[0]!;
    const exits: Array<[number | null, string | null]> = [];
    channel.onExit((code, signal) => exits.push([code, signal]));
    expect(channel.connected).toBe(true);
    child.emit('exit', 134);
    child.emit('exit', 134);
    expect(exits).toEqual([[134, null]]);
    expect(channel.connected).toBe(false);
    expect(channel.exited).toBe(true);
    channel.send({ type: 'unload' });
    channel.kill();
    expect(child.posted).toEqual([]);
    expect(child.killed).toBe(0);
  });

  it('kill ends the process and reports its exit', async () => {
    const utility = new FakeUtilityProcessModule();
    const channel = utilityProcessStarter(utility)(spec);
    const exited = new Promise<number | null>((resolve) => channel.onExit((code) => resolve(code)));
    channel.kill();
    expect(await exited).toBe(0);
    expect(utility.started[0]?.killed).toBe(1);
  });
});
