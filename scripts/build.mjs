// Builds the service (and the desktop shell) with esbuild, then the UI with Vite.
// Flags: --server-only skips the UI; --quiet prints nothing on success.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const say = (line) => {
  if (!args.has('--quiet')) process.stdout.write(`${line}\n`);
};

/** Every `*.worker.ts` file under `dir`: workers are separate entry points. */
function workerEntries(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...workerEntries(full));
    else if (name.endsWith('.worker.ts')) out.push(full);
  }
  return out;
}

const entries = [
  'server/cli.ts',
  'server/index.ts',
  'server/backup/cli.ts',
  'main/index.ts',
  'main/preload.ts',
  ...workerEntries(path.join(root, 'server')).map((f) => path.relative(root, f)),
].filter((entry) => existsSync(path.join(root, entry)));

/**
 * Dependencies stay outside the bundle only when they must: native modules, packages that
 * locate files of their own at run time (wasm, workers, data), and optional peers. Everything
 * else is bundled, which roughly halves the service's start-up time (fewer files to resolve).
 */
const EXTERNAL = [
  'electron', 'sqlite3', 'keytar', 'knex', 'pyodide', 'pdf-parse', 'pdfjs-dist', 'jsdom', 'canvas', '@napi-rs/canvas',
  '@node-rs/bcrypt', 'bufferutil', 'utf-8-validate', 'electron-updater', 'mammoth', 'pino', 'thread-stream', 'socket.io', 'engine.io', 'ws',
];

const started = Date.now();
for (const dir of ['server', 'main', 'chunks']) rmSync(path.join(root, 'dist', dir), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: entries.filter((e) => e !== 'main/preload.ts'),
  outdir: 'dist',
  outbase: '.',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
});
if (entries.includes('main/preload.ts')) {
  // Electron's sandboxed preload must be CommonJS and may only require 'electron'.
  await build({
    absWorkingDir: root,
    entryPoints: ['main/preload.ts'],
    outfile: 'dist/main/preload.cjs',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['electron'],
    logLevel: 'warning',
  });
}
say(`built service in ${Date.now() - started} ms`);

if (!args.has('--server-only') && existsSync(path.join(root, 'renderer', 'vite.config.ts'))) {
  const vite = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/vite.config.ts', ...(args.has('--quiet') ? ['--logLevel', 'warn'] : [])], {
    cwd: root,
    stdio: 'inherit',
  });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
}
