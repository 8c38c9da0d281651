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
import { CHARTS_PY, MATPLOTLIB_INIT_PY } from './charts-py';
import type { RunOutput, SandboxFile, SandboxReady, SandboxRequest, SandboxResponse } from './protocol';
import { RUN_RUNTIME_PY } from './run-runtime-py';
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
  // Emscripten's socket layer turns Python sockets into WebSockets (the `ws` package) to any
  // address: every way it opens one (connect, a datagram's peer, listen) is refused instead.
  const emscripten = (py as unknown as { _module: { SOCKFS: { websocket_sock_ops: Record<string, unknown> }; FS: { ErrnoError: new (errno: number) => Error }; ERRNO_CODES?: { ECONNREFUSED?: number } } })._module;
  const refused = emscripten.ERRNO_CODES?.ECONNREFUSED ?? 14;
  const refuse = () => {
    throw new emscripten.FS.ErrnoError(refused);
  };
  for (const op of ['createPeer', 'connect', 'listen']) emscripten.SOCKFS.websocket_sock_ops[op] = refuse;
  // Pyodide also leaves `require` (fs, ws, child_process) on globalThis for its loader.
  Object.defineProperty(globalThis, 'require', { value: refuse, writable: false, configurable: false });
  const proc = process as unknown as Record<string, unknown>;
  for (const name of ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen', 'kill', 'chdir', 'reallyExit', 'abort']) {
    try {
      Object.defineProperty(proc, name, { value: undefined, writable: false, configurable: false });
    } catch {
      // not configurable on this Node: leave it
    }
  }
}

/** The code's working folder: the chat's files are put there read-only, what the code writes there comes back. */
const WORK_DIR = '/mnt/data';

type Fs = {
  mkdirTree(path: string): void;
  readdir(path: string): string[];
  stat(path: string): { mode: number; size: number; mtime: Date };
  isDir(mode: number): boolean;
  unlink(path: string): void;
  rmdir(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
  readFile(path: string): Uint8Array;
  chmod(path: string, mode: number): void;
  chdir(path: string): void;
};

/** Every file below `dir` (paths relative to it), depth-first. */
function walk(fs: Fs, dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of fs.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    const full = `${dir}/${name}`;
    if (fs.isDir(fs.stat(full).mode)) out.push(...walk(fs, full, `${prefix}${name}/`));
    else out.push(`${prefix}${name}`);
  }
  return out;
}

function emptyDir(fs: Fs, dir: string): void {
  for (const name of fs.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    const full = `${dir}/${name}`;
    if (fs.isDir(fs.stat(full).mode)) {
      emptyDir(fs, full);
      fs.rmdir(full);
    } else {
      fs.chmod(full, 0o644);
      fs.unlink(full);
    }
  }
}

/** Lays out the working folder: emptied, the given files written read-only. Answers each file's stamp. */
function prepareWorkDir(fs: Fs, files: SandboxFile[]): Map<string, string> {
  fs.mkdirTree(WORK_DIR);
  fs.chmod(WORK_DIR, 0o777);
  emptyDir(fs, WORK_DIR);
  const stamps = new Map<string, string>();
  for (const file of files) {
    const full = `${WORK_DIR}/${file.name}`;
    fs.writeFile(full, file.bytes);
    fs.chmod(full, 0o444);
    const info = fs.stat(full);
    stamps.set(file.name, `${info.size}:${info.mtime.getTime()}`);
  }
  fs.chdir(WORK_DIR);
  return stamps;
}

/** Files the code wrote into the working folder (new, or not the ones it was given), within the limits. */
function collectOutputs(fs: Fs, given: Map<string, string>, maxFiles: number, maxBytes: number): Pick<RunOutput, 'files' | 'skipped'> {
  const files: SandboxFile[] = [];
  const skipped: string[] = [];
  let names: string[] = [];
  try {
    names = walk(fs, WORK_DIR);
  } catch {
    return { files, skipped };
  }
  for (const name of names) {
    const info = fs.stat(`${WORK_DIR}/${name}`);
    if (given.get(name) === `${info.size}:${info.mtime.getTime()}`) continue;
    if (files.length >= maxFiles || info.size > maxBytes || info.size === 0) {
      skipped.push(name);
      continue;
    }
    files.push({ name, bytes: fs.readFile(`${WORK_DIR}/${name}`) });
  }
  return { files, skipped };
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
    py = await loadPyodide({ indexURL, jsglobals: sandboxGlobals(), stdout: () => {}, stderr: () => {}, stdin: () => null });
    py.runPython('import asyncio, pyodide.webloop, pyodide.code');
    py.runPython(TOOLS_RUNTIME_PY);
    py.runPython(RUN_RUNTIME_PY);
    (py.globals.get('_parley_install_charts') as (a: string, b: string) => void)(CHARTS_PY, MATPLOTLIB_INIT_PY);
    lockDown(py);
  } catch (error) {
    port!.postMessage({ ready: false, message: error instanceof Error ? error.message : String(error) } satisfies SandboxReady);
    return;
  }
  const specsOf = py.globals.get('_parley_specs') as (key: string, source: string) => string;
  const callOf = py.globals.get('_parley_call') as (key: string, source: string, name: string, args: string, user: string) => Promise<string>;
  const execOf = py.globals.get('_parley_exec') as (space: string, code: string, limit: number, fresh: boolean) => Promise<string>;
  const fs = py.FS as unknown as Fs;

  port!.on('message', (request: SandboxRequest) => {
    memoryLimit = request.memoryLimitBytes;
    memoryRefused = false;
    void (async (): Promise<SandboxResponse> => {
      try {
        if (request.op === 'run') {
          const given = prepareWorkDir(fs, request.files);
          const ran = JSON.parse(await execOf(request.space, request.code, request.outputLimit, request.fresh === true)) as Omit<RunOutput, 'files' | 'skipped'>;
          if (memoryRefused) return failure(request.id, new Error('MemoryError'));
          return { id: request.id, ok: true, run: { ...ran, ...collectOutputs(fs, given, request.maxFiles, request.maxFileBytes) } };
        }
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
    })().then((response) => port!.postMessage(response, response.ok && response.run ? response.run.files.map((file) => file.bytes.buffer as ArrayBuffer) : []));
  });
  port!.postMessage({ ready: true } satisfies SandboxReady);
}

void main();
