/**
 * The Python sandbox: Pyodide in a worker thread. No host filesystem (Pyodide's in-memory FS
 * only, the Node FS driver removed), no `js` globals beyond timers, no network, a WebAssembly
 * memory cap per call. The host enforces the time limit by terminating this worker.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { PyodideAPI } from 'pyodide';
import { loadExports } from '../../platform/library-exports';
import { unpackedPath } from '../../platform/paths';
import type { SandboxReady, SandboxRequest, SandboxResponse } from './protocol';
import { TOOLS_RUNTIME_PY } from './tools-runtime-py';

const port = parentPort;
if (!port) throw new Error('pyodide.worker must run in a worker thread');

/** The current memory cap; growth past it fails, which Python sees as MemoryError. */
let memoryLimit = 256 * 1024 * 1024;
let memoryRefused = false;
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
const memoryPrototype = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly.Memory.prototype;
const originalGrow = memoryPrototype.grow;
memoryPrototype.grow = function grow(this: WasmMemory, pages: number) {
  if (this.buffer.byteLength + pages * 65536 > memoryLimit) {
    memoryRefused = true;
    throw new RangeError('Memory limit reached');
  }
  return originalGrow.call(this, pages);
};

/** The only JS globals Python sees: timers that hand out numbers, not Node objects. */
function sandboxGlobals(): object {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  const globals = Object.create(null) as Record<string, unknown>;
  globals.setTimeout = (fn: () => void, ms?: number) => {
    const id = next++;
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        fn();
      }, ms),
    );
    return id;
  };
  globals.clearTimeout = (id: number) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
  };
  globals.setInterval = (fn: () => void, ms?: number) => {
    const id = next++;
    timers.set(id, setInterval(fn, ms));
    return id;
  };
  globals.clearInterval = (id: number) => {
    clearInterval(timers.get(id));
    timers.delete(id);
  };
  return globals;
}

/** Closes the ways from a JS object back to code evaluation and Node's built-in modules. */
function lockDown(py: PyodideAPI): void {
  const fs = (py.FS as { filesystems: Record<string, unknown> }).filesystems;
  for (const name of Object.keys(fs)) if (name !== 'MEMFS') delete fs[name];
  // The Python-side view of the Pyodide API: only what the asyncio loop needs.
  const api = (py as unknown as { _api: { scheduleCallback: unknown; config: { enableRunUntilComplete?: boolean } } })._api;
  const shimApi = Object.assign(Object.create(null) as object, {
    scheduleCallback: api.scheduleCallback,
    config: Object.assign(Object.create(null) as object, { enableRunUntilComplete: Boolean(api.config.enableRunUntilComplete) }),
  });
  py.registerJsModule('pyodide_js', Object.assign(Object.create(null) as object, { _api: shimApi }));
  py.runPython(`
import sys, os, glob
for name in [n for n in sys.modules if n == 'pyodide_js' or n.startswith('pyodide_js.')]:
    del sys.modules[name]
for path in glob.glob(sys.prefix + '/lib/python*/lib-dynload/_ctypes*') + glob.glob('/lib/python*/lib-dynload/_ctypes*'):
    os.remove(path)
sys.modules['_ctypes'] = None
sys.modules['ctypes'] = None
`);
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    Object.defineProperty(Object.getPrototypeOf(fn) as object, 'constructor', { value: undefined, writable: false, configurable: false });
  }
  const proc = process as unknown as Record<string, unknown>;
  for (const name of ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen', 'kill', 'chdir', 'reallyExit', 'abort']) {
    try {
      Object.defineProperty(proc, name, { value: undefined, writable: false, configurable: false });
    } catch {
      // not configurable on this Node: leave it
    }
  }
}

function failure(id: number, error: unknown): SandboxResponse {
  const text = error instanceof Error ? error.message : String(error);
  if (memoryRefused || /MemoryError/.test(text)) return { id, ok: false, kind: 'memory', message: 'The tool ran out of memory (memory limit reached)' };
  const lines = text.trim().split('\n');
  return { id, ok: false, kind: 'python', message: lines[lines.length - 1] ?? text };
}

async function main(): Promise<void> {
  let py: PyodideAPI;
  try {
    const { loadPyodide } = await loadExports(import('pyodide'), 'pyodide', 'loadPyodide');
    // In the packaged app Pyodide's files are in app.asar.unpacked (it reads them by path).
    const indexURL = unpackedPath(path.dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))) + path.sep;
    py = await loadPyodide({ indexURL, jsglobals: sandboxGlobals(), stdout: () => {}, stderr: () => {} });
    py.runPython('import asyncio, pyodide.webloop');
    py.runPython(TOOLS_RUNTIME_PY);
    lockDown(py);
  } catch (error) {
    port!.postMessage({ ready: false, message: error instanceof Error ? error.message : String(error) } satisfies SandboxReady);
    return;
  }
  const specsOf = py.globals.get('_parley_specs') as (key: string, source: string) => string;
  const callOf = py.globals.get('_parley_call') as (key: string, source: string, name: string, args: string, user: string) => Promise<string>;

  port!.on('message', (request: SandboxRequest) => {
    memoryLimit = request.memoryLimitBytes;
    memoryRefused = false;
    void (async (): Promise<SandboxResponse> => {
      try {
        if (request.op === 'inspect') {
          const answer = JSON.parse(specsOf(request.key, request.source)) as { syntax_error?: string; specs?: SandboxResponse[] };
          if (answer.syntax_error) return { id: request.id, ok: false, kind: 'syntax', message: answer.syntax_error };
          return { id: request.id, ok: true, specs: answer.specs as never };
        }
        const result = await callOf(request.key, request.source, request.name, request.args, request.user);
        return { id: request.id, ok: true, result: String(result) };
      } catch (error) {
        return failure(request.id, error);
      }
    })().then((response) => port!.postMessage(response));
  });
  port!.postMessage({ ready: true } satisfies SandboxReady);
}

void main();
