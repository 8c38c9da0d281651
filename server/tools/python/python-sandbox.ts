import { createHash } from 'node:crypto';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { FunctionSpec } from '../../contracts/tools';
import type { Logger } from '../../platform/log';
import { workerEntry } from '../../platform/worker-entry';
import type { RunOutput, SandboxFailure, SandboxFile, SandboxJob, SandboxReady, SandboxRequest, SandboxResponse } from './protocol';

/** A sandboxed Python run failed: a syntax error, a Python exception, or a limit was hit. */
export class PythonToolError extends Error {
  constructor(
    readonly kind: SandboxFailure | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'PythonToolError';
  }
}

/** Limits of one run. */
export interface RunLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** Starts the sandbox worker (the built file, or the TypeScript source under tsx/Vitest). */
function spawnWorker(options: WorkerOptions): Worker {
  const entry = workerEntry('tools/python/pyodide.worker');
  if (!entry) throw new PythonToolError('unavailable', 'The Python sandbox worker is missing from this build');
  return new Worker(entry.code, { ...options, eval: entry.eval });
}

/** The cache key of a source text inside the worker. */
export function sourceKey(source: string): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 32);
}

type Pending = { resolve: (response: SandboxResponse) => void; reject: (error: Error) => void };

/**
 * One Pyodide worker, started on first use, running one request at a time. A run over its time
 * limit terminates the worker (the next run starts a fresh one); a run that hits the memory
 * limit gets its error and the worker is recycled too, so its grown heap is given back.
 */
export function createPythonSandbox(options: { log: Logger; loadTimeoutMs?: number }) {
  const { log } = options;
  const loadTimeoutMs = options.loadTimeoutMs ?? 120_000;
  let worker: Worker | undefined;
  let ready: Promise<Worker> | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  function failAll(error: Error): void {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  }

  function stop(): void {
    const current = worker;
    worker = undefined;
    ready = undefined;
    if (current) void current.terminate();
  }

  function start(): Promise<Worker> {
    const started = Date.now();
    const w = spawnWorker({ resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 } });
    worker = w;
    w.unref();
    return new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new PythonToolError('unavailable', 'The Python sandbox did not start in time'));
      }, loadTimeoutMs);
      w.once('message', (first: SandboxReady) => {
        clearTimeout(timer);
        if (!first.ready) {
          stop();
          reject(new PythonToolError('unavailable', `The Python sandbox could not start: ${first.message}`));
          return;
        }
        log.debug({ ms: Date.now() - started }, 'python sandbox ready');
        w.on('message', (response: SandboxResponse) => {
          const p = pending.get(response.id);
          pending.delete(response.id);
          p?.resolve(response);
        });
        resolve(w);
      });
      w.on('error', (error) => {
        clearTimeout(timer);
        const oom = /ERR_WORKER_OUT_OF_MEMORY|out of memory/i.test(`${(error as { code?: string }).code ?? ''} ${error.message}`);
        log.warn({ err: error }, 'python sandbox worker failed');
        if (worker === w) stop();
        const failure = oom ? new PythonToolError('memory', 'The tool ran out of memory (memory limit reached)') : new PythonToolError('crashed', `The Python sandbox crashed: ${error.message}`);
        failAll(failure);
        reject(failure);
      });
      w.on('exit', () => {
        clearTimeout(timer);
        if (worker === w) {
          worker = undefined;
          ready = undefined;
        }
        failAll(new PythonToolError('crashed', 'The Python sandbox stopped'));
        reject(new PythonToolError('crashed', 'The Python sandbox stopped'));
      });
    });
  }

  async function send(request: SandboxJob, limits: RunLimits): Promise<SandboxResponse> {
    if (closed) throw new PythonToolError('unavailable', 'The Python sandbox is shut down');
    ready ??= start();
    const w = await ready;
    const id = nextId++;
    return new Promise<SandboxResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        if (worker === w) stop();
        reject(new PythonToolError('timeout', `The tool ran longer than its time limit (${limits.timeoutMs / 1000} s) and was stopped`));
      }, limits.timeoutMs);
      pending.set(id, {
        resolve: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      const transfer = request.op === 'run' ? request.files.map((file) => file.bytes.buffer as ArrayBuffer) : [];
      w.postMessage({ ...request, id, memoryLimitBytes: limits.memoryMb * 1024 * 1024 } as SandboxRequest, transfer);
    });
  }

  /** Runs requests one at a time: the worker has one interpreter. */
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  function unwrap(response: SandboxResponse): SandboxResponse & { ok: true } {
    if (response.ok) return response;
    if (response.kind === 'memory') stop();
    throw new PythonToolError(response.kind, response.message);
  }

  return {
    /** The function specs of a `class Tools` source; a syntax error throws kind `syntax` with Python's message. */
    inspect(source: string, limits: RunLimits): Promise<FunctionSpec[]> {
      return serial(async () => unwrap(await send({ op: 'inspect', key: sourceKey(source), source }, limits)).specs ?? []);
    },
    /** Calls method `name` of the source's `Tools` with JSON `args`; answers the result as text. */
    call(source: string, name: string, args: Record<string, unknown>, user: Record<string, unknown>, limits: RunLimits): Promise<string> {
      return serial(async () => {
        const response = unwrap(await send({ op: 'call', key: sourceKey(source), source, name, args: JSON.stringify(args), user: JSON.stringify(user) }, limits));
        return response.result ?? '';
      });
    },
    /**
     * Runs a code cell in namespace `space` (kept between runs of that space while the worker
     * lives), with `files` read-only in its working folder; answers what it printed, its last
     * expression, its traceback and the files it wrote. Limits stop the worker as for tools.
     */
    run(code: string, options: { space: string; fresh?: boolean; files: SandboxFile[]; outputLimit: number; maxFiles: number; maxFileBytes: number }, limits: RunLimits): Promise<RunOutput> {
      return serial(async () => {
        const response = unwrap(await send({ op: 'run', code, ...options }, limits));
        if (!response.run) throw new PythonToolError('crashed', 'The Python sandbox gave no output');
        return response.run;
      });
    },
    /** Starts the worker now (Pyodide takes seconds to load) so the first run does not wait for it. */
    async warm(): Promise<void> {
      if (closed) return;
      ready ??= start();
      await ready;
    },
    /** Whether a worker is running now (for tests and diagnostics). */
    get running(): boolean {
      return worker !== undefined;
    },
    /** Stops the worker. */
    async close(): Promise<void> {
      closed = true;
      const current = worker;
      worker = undefined;
      ready = undefined;
      failAll(new PythonToolError('unavailable', 'The Python sandbox is shut down'));
      if (current) await current.terminate();
    },
  };
}
export type PythonSandbox = ReturnType<typeof createPythonSandbox>;
