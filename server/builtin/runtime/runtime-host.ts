import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../platform/paths';
import type { Logger } from '../../platform/log';
import { forkProcessStarter, type ChildChannel, type ProcessStarter } from '../../platform/process-starter';
import type { ChatMessage, ToolSpec } from '../../providers';
import type { RuntimeChatOptions, RuntimeChatResult, RuntimeErrorCode, RuntimeModel, RuntimeReply, RuntimeRequest, RuntimeSettings } from './protocol';

/** A runtime request failed; `code` says how (see RuntimeErrorCode, plus `crashed`). */
export class RuntimeFailure extends Error {
  constructor(
    readonly code: RuntimeErrorCode | 'crashed',
    message: string,
  ) {
    super(message);
    this.name = code === 'aborted' ? 'AbortError' : 'RuntimeFailure';
  }
}

/** How to start the runtime process: the built file, or the TypeScript source through tsx. */
function runtimeEntry(): { file: string; execArgv: string[] } {
  const root = packageRoot(path.dirname(fileURLToPath(import.meta.url)));
  if (fileURLToPath(import.meta.url).endsWith('.ts')) {
    return { file: path.join(root, 'server', 'builtin', 'runtime', 'llama-runtime.worker.ts'), execArgv: ['--import', 'tsx'] };
  }
  const built = path.join(root, 'dist', 'server', 'builtin', 'runtime', 'llama-runtime.worker.js');
  if (!existsSync(built)) throw new RuntimeFailure('failed', 'The model runtime is missing from this build');
  return { file: built, execArgv: [] };
}

interface Pending {
  onChunk?: (text: string) => void;
  resolve: (reply: RuntimeReply) => void;
  reject: (error: Error) => void;
}

interface RunningProcess {
  child: ChildChannel;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  stderr: string;
}

const STDERR_TAIL = 4096;

/** The last meaningful line llama.cpp printed before dying (an assert names the broken part). */
function crashReason(stderr: string, code: number | null, signal: NodeJS.Signals | null): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const telling = [...lines].reverse().find((l) => /GGML_ASSERT|error|failed|abort/i.test(l)) ?? lines.at(-1);
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  return telling ? `${telling.replace(/^.*\/(llama\.cpp|ggml)\//, '')} (${how})` : how;
}

/** Spawns a runtime process and wires its replies to pending requests. */
function spawnRuntime(
  start: ProcessStarter,
  settings: RuntimeSettings,
  onLoaded: (ids: string[]) => void,
  onReady: (gpu: string | false) => void,
  onExit: (proc: RunningProcess) => void,
): RunningProcess {
  const entry = runtimeEntry();
  const child = start({ file: entry.file, execArgv: entry.execArgv, env: { ...process.env, PARLEY_RUNTIME_SETTINGS: JSON.stringify(settings) }, name: 'Parley model runtime' });
  let markReady!: () => void;
  let markFailed!: (error: Error) => void;
  const proc: RunningProcess = {
    child,
    pending: new Map(),
    stderr: '',
    ready: new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    }),
  };
  proc.ready.catch(() => undefined);
  child.stderr?.on('data', (data: Buffer) => {
    proc.stderr = (proc.stderr + data.toString('utf8')).slice(-STDERR_TAIL);
  });
  child.onMessage((message) => {
    const reply = message as RuntimeReply;
    if (reply.type === 'ready') {
      onReady(reply.gpu);
      markReady();
      return;
    }
    if (reply.type === 'loaded') {
      onLoaded(reply.ids);
      return;
    }
    const pending = proc.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'chunk') {
      pending.onChunk?.(reply.text);
      return;
    }
    proc.pending.delete(reply.id);
    if (reply.type === 'error') pending.reject(new RuntimeFailure(reply.code, reply.message));
    else pending.resolve(reply);
  });
  child.onError((error) => markFailed(new RuntimeFailure('crashed', `The model runtime could not start: ${error.message}`)));
  child.onExit((code, signal) => {
    const reason = crashReason(proc.stderr, code, signal);
    const failure = new RuntimeFailure('crashed', `The model runtime stopped: ${reason}`);
    markFailed(failure);
    for (const pending of proc.pending.values()) pending.reject(failure);
    proc.pending.clear();
    onExit(proc);
  });
  return proc;
}

export interface RuntimeHostOptions {
  /** The settings the next runtime process starts with. */
  settings: () => Promise<RuntimeSettings>;
  /** Idle time after which the runtime (and every model it holds) is unloaded; 0 = never. */
  idleMs: () => Promise<number>;
  log: Logger;
  /** Starts the runtime process (default: child_process.fork; the desktop app passes Electron's utilityProcess). */
  startProcess?: ProcessStarter;
}

/**
 * The service's side of the runtime: starts the process on first use, sends it requests,
 * streams replies back, and stops it after an idle time (unloading every model). If it dies
 * (a malformed file, out of memory), the requests in flight fail with the reason and the next
 * request starts a fresh one; the service itself never goes down.
 */
export function createRuntimeHost(options: RuntimeHostOptions) {
  const { log } = options;
  const start = options.startProcess ?? forkProcessStarter;
  let current: RunningProcess | undefined;
  let starting: Promise<RunningProcess> | undefined;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;
  let loadedIds: string[] = [];
  let gpu: string | false | null = null;
  let threads = 0;

  async function processFor(): Promise<RunningProcess> {
    if (current) return current;
    starting ??= (async () => {
      const settings = await options.settings();
      threads = settings.threads;
      const proc = spawnRuntime(
        start,
        settings,
        (ids) => {
          if (current === proc) loadedIds = ids;
        },
        (kind) => {
          gpu = kind;
        },
        (ended) => {
          if (current === ended) {
            current = undefined;
            loadedIds = [];
          }
        },
      );
      current = proc;
      await proc.ready;
      return proc;
    })().finally(() => {
      starting = undefined;
    });
    return starting;
  }

  function stop(proc: RunningProcess | undefined): void {
    if (!proc) return;
    if (current === proc) {
      current = undefined;
      loadedIds = [];
    }
    proc.child.kill();
  }

  async function armIdle(): Promise<void> {
    clearTimeout(idleTimer);
    const proc = current;
    if (!proc || proc.pending.size > 0) return;
    const idleMs = await options.idleMs();
    if (idleMs <= 0) return;
    idleTimer = setTimeout(() => {
      if (current === proc && proc.pending.size === 0) {
        log.info({ models: loadedIds }, 'built-in models unloaded after idle time');
        stop(proc);
      }
    }, idleMs);
    idleTimer.unref();
  }

  async function call(request: RuntimeRequest & { id: number }, signal: AbortSignal | undefined, onChunk?: (text: string) => void): Promise<RuntimeReply> {
    if (signal?.aborted) throw new RuntimeFailure('aborted', 'The request was aborted');
    clearTimeout(idleTimer);
    const proc = await processFor();
    try {
      return await new Promise<RuntimeReply>((resolve, reject) => {
        proc.pending.set(request.id, { onChunk, resolve, reject });
        const onAbort = () => {
          proc.child.send({ type: 'abort', id: request.id } satisfies RuntimeRequest);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const cleanup = () => signal?.removeEventListener('abort', onAbort);
        proc.pending.get(request.id)!.resolve = (reply) => {
          cleanup();
          resolve(reply);
        };
        proc.pending.get(request.id)!.reject = (error) => {
          cleanup();
          reject(error);
        };
        if (!proc.child.connected) reject(new RuntimeFailure('crashed', 'The model runtime stopped'));
        else proc.child.send(request);
      });
    } finally {
      void armIdle();
    }
  }

  return {
    /** Streams one chat answer: `onChunk` gets text as it is generated. */
    async chat(input: { model: RuntimeModel; messages: ChatMessage[]; tools?: ToolSpec[]; options: RuntimeChatOptions }, signal: AbortSignal | undefined, onChunk: (text: string) => void): Promise<RuntimeChatResult> {
      const reply = await call({ type: 'chat', id: nextId++, ...input }, signal, onChunk);
      if (reply.type !== 'chat-done') throw new RuntimeFailure('failed', 'unexpected runtime reply');
      return reply.result;
    },

    /** One vector per input. */
    async embed(model: RuntimeModel, inputs: string[], signal?: AbortSignal): Promise<number[][]> {
      const reply = await call({ type: 'embed', id: nextId++, model, inputs }, signal);
      if (reply.type !== 'embed-done') throw new RuntimeFailure('failed', 'unexpected runtime reply');
      return reply.vectors;
    },

    /** One relevance (0..1) per document for `query`, from a reranker model. */
    async rank(model: RuntimeModel, query: string, documents: string[], signal?: AbortSignal): Promise<number[]> {
      const reply = await call({ type: 'rank', id: nextId++, model, query, documents }, signal);
      if (reply.type !== 'rank-done') throw new RuntimeFailure('failed', 'unexpected runtime reply');
      return reply.scores;
    },

    /**
     * Loads `file` once in a throw-away process of its own, so a file that makes llama.cpp
     * abort cannot disturb chats in progress. Rejects with the reason.
     */
    async probe(file: string): Promise<void> {
      const settings = { ...(await options.settings()), gpuLayers: 0 as const };
      const proc = spawnRuntime(start, settings, () => undefined, () => undefined, () => undefined);
      try {
        await proc.ready;
        await new Promise<RuntimeReply>((resolve, reject) => {
          proc.pending.set(0, { resolve, reject });
          proc.child.send({ type: 'probe', id: 0, path: file } satisfies RuntimeRequest);
        });
      } finally {
        proc.child.kill();
      }
    },

    /** Unloads one model now (when it is not answering), e.g. before its file is deleted. */
    unload(modelId: string): void {
      current?.child.send({ type: 'unload', modelId } satisfies RuntimeRequest);
    },

    /** Stops the runtime so the next request starts one with new settings. */
    restart(): void {
      if (current && current.pending.size === 0) stop(current);
    },

    /** What is loaded now. */
    status(): { loaded: string[]; threads: number; gpu: string | false | null } {
      return { loaded: current ? [...loadedIds] : [], threads, gpu };
    },

    /** Stops the runtime process (service shutdown). */
    async close(): Promise<void> {
      clearTimeout(idleTimer);
      const proc = current;
      stop(proc);
      if (proc && !proc.child.exited) await new Promise<void>((resolve) => proc.child.onExit(() => resolve()));
    },
  };
}
export type RuntimeHost = ReturnType<typeof createRuntimeHost>;
