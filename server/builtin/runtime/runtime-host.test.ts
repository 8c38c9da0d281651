import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/log';
import type { ChildChannel, ProcessSpec, ProcessStarter } from '../../platform/process-starter';
import type { RuntimeReply, RuntimeRequest } from './protocol';
import { createRuntimeHost } from './runtime-host';

const settings = { threads: 2, gpuLayers: 0 as const, memoryBudget: 1e9, contextSize: 0, sequences: 1 };
const model = { id: 'tiny', path: '/models/tiny.gguf', ramEstimate: 1 };

/** A runtime process stand-in behind an injected starter: answers the protocol as llama-runtime.worker.ts does. */
function fakeRuntime() {
  const started: Array<{ spec: ProcessSpec; requests: RuntimeRequest[]; killed: boolean }> = [];
  const start: ProcessStarter = (spec): ChildChannel => {
    const record = { spec, requests: [] as RuntimeRequest[], killed: false };
    started.push(record);
    const messageListeners: Array<(message: unknown) => void> = [];
    const exitListeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void> = [];
    let exited = false;
    const reply = (message: RuntimeReply) => queueMicrotask(() => messageListeners.forEach((listener) => listener(structuredClone(message))));
    const exit = () => {
      if (exited) return;
      exited = true;
      queueMicrotask(() => exitListeners.forEach((listener) => listener(0, null)));
    };
    reply({ type: 'ready', gpu: false, threads: 2 });
    return {
      send: (message) => {
        if (exited) return;
        const request = structuredClone(message) as RuntimeRequest;
        record.requests.push(request);
        if (request.type === 'chat') {
          reply({ type: 'chunk', id: request.id, text: 'Hel' });
          reply({ type: 'chunk', id: request.id, text: 'lo' });
          reply({ type: 'chat-done', id: request.id, result: { content: 'Hello', toolCalls: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }, finishReason: 'stop' } });
        }
        if (request.type === 'probe') reply({ type: 'probe-done', id: request.id });
      },
      onMessage: (listener) => void messageListeners.push(listener),
      onExit: (listener) => void exitListeners.push(listener),
      onError: () => undefined,
      stderr: new PassThrough(),
      get connected() {
        return !exited;
      },
      get exited() {
        return exited;
      },
      kill: () => {
        record.killed = true;
        exit();
      },
    };
  };
  return { start, started };
}

describe('the runtime host with an injected process starter (the desktop app’s utilityProcess)', () => {
  const log = createLogger({ level: 'silent', stdout: false });

  it('starts the runtime through the starter, streams a chat over its channel and stops it on close', async () => {
    const runtime = fakeRuntime();
    const host = createRuntimeHost({ settings: async () => settings, idleMs: async () => 0, log: log.log, startProcess: runtime.start });
    const chunks: string[] = [];
    const result = await host.chat({ model, messages: [{ role: 'user', content: 'hi' }], options: {} }, undefined, (text) => chunks.push(text));
    expect(chunks.join('')).toBe('Hello');
    expect(result.content).toBe('Hello');
    expect(runtime.started).toHaveLength(1);
    const [first] = runtime.started;
    expect(first?.spec.file).toMatch(/llama-runtime\.worker\.(ts|js)$/);
    expect(JSON.parse(first?.spec.env.PARLEY_RUNTIME_SETTINGS ?? '{}')).toEqual(settings);
    // The starter decides how the process runs: the host asks for no RunAsNode (the packaged app refuses it).
    expect(first?.spec.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
    await host.close();
    expect(first?.killed).toBe(true);
  });

  it('probes a file in a process of its own, through the same starter', async () => {
    const runtime = fakeRuntime();
    const host = createRuntimeHost({ settings: async () => settings, idleMs: async () => 0, log: log.log, startProcess: runtime.start });
    await host.probe('/models/new.gguf');
    expect(runtime.started).toHaveLength(1);
    expect(runtime.started[0]?.requests).toEqual([{ type: 'probe', id: 0, path: '/models/new.gguf' }]);
    expect(runtime.started[0]?.killed).toBe(true);
    expect(JSON.parse(runtime.started[0]?.spec.env.PARLEY_RUNTIME_SETTINGS ?? '{}').gpuLayers).toBe(0);
  });
});
