// Builds the service (and the desktop shell) with esbuild, then the UI with Vite.
// Flags: --server-only skips the UI; --quiet prints nothing on success; --force builds even
// when the sources have not changed since the last build.
//
// A running service may load files from dist/ at any time (lazy chunks, workers, UI assets), so
// a build never deletes or empties a folder under it: each part is built into a staging folder,
// its files are renamed over the old ones one by one (a rename is atomic), and older chunks and
// assets are pruned only after three newer builds. Sources unchanged since the last build: skip.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const args = new Set(process.argv.slice(2));
const say = (line) => {
  if (!args.has('--quiet')) process.stdout.write(`${line}\n`);
};

/** Every file under `dir` (relative to `base`), skipping node_modules. */
function filesUnder(dir, base = dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, base));
    else out.push(path.relative(base, full));
  }
  return out.sort();
}

/** A digest of the inputs of one part of the build (paths and contents). */
function digestOf(inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    const full = path.join(root, input);
    if (!existsSync(full)) continue;
    const files = statSync(full).isDirectory() ? filesUnder(full).map((f) => path.join(input, f)) : [input];
    for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

const stampFile = path.join(dist, '.build-stamps.json');
const stamps = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : {};
const saveStamps = () => writeFileSync(stampFile, JSON.stringify(stamps, null, 2));

/**
 * Moves every file of `staging` into `target` by renaming it over the old one, then deletes
 * files of `target` under `prunable` folders that none of the last three builds produced.
 */
function install(part, staging, target, prunable) {
  const files = filesUnder(staging);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    renameSync(path.join(staging, file), path.join(target, file));
  }
  rmSync(staging, { recursive: true, force: true });
  const history = [files, ...(stamps[part]?.history ?? [])].slice(0, 3);
  const keep = new Set(history.flat());
  for (const file of filesUnder(target)) {
    if (prunable.some((folder) => file.startsWith(folder)) && !keep.has(file)) rmSync(path.join(target, file), { force: true });
  }
  return history;
}

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
  'server/migrate-db/cli.ts',
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
  'electron', 'sqlite3', 'keytar', 'knex', 'pg', 'pyodide', 'pdf-parse', 'pdfjs-dist', 'jsdom', 'canvas', '@napi-rs/canvas',
  '@node-rs/bcrypt', 'bufferutil', 'utf-8-validate', 'electron-updater', 'mammoth', 'pino', 'thread-stream', 'socket.io', 'engine.io', 'ws',
  '@socket.io/postgres-adapter',
  'node-llama-cpp', '@node-llama-cpp/*',
  // whisper.cpp: a native module that imports its platform's prebuilt package by name at run time.
  '@fugood/whisper.node', '@fugood/node-whisper-*',
];

const started = Date.now();
mkdirSync(dist, { recursive: true });
const serverDigest = digestOf(['server', 'main', 'scripts/build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json']);
const serverCurrent = !args.has('--force') && stamps.server?.digest === serverDigest && existsSync(path.join(dist, 'server', 'cli.js'));
const serverStaging = path.join(dist, `.staging-server-${process.pid}`);
if (serverCurrent) say('service is up to date');
else {
rmSync(serverStaging, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: entries.filter((e) => e !== 'main/preload.ts'),
  outdir: serverStaging,
  outbase: '.',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
  sourcemap: true,
  // V8 keeps each loaded chunk's whole source in memory: without comments and indentation the
  // service holds 4 MB less. Names stay as written, so stack traces still name their functions
  // (each chunk's .map gives the line in the sources); licences go to a .LEGAL.txt beside it.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'linked',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
});
if (entries.includes('main/preload.ts')) {
  // Electron's sandboxed preload must be CommonJS and may only require 'electron'.
  await build({
    absWorkingDir: root,
    entryPoints: ['main/preload.ts'],
    outfile: path.join(serverStaging, 'main', 'preload.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['electron'],
    logLevel: 'warning',
  });
}
stamps.server = { digest: serverDigest, history: install('server', serverStaging, dist, ['chunks/']) };
saveStamps();
say(`built service in ${Date.now() - started} ms`);
}

if (!args.has('--server-only') && existsSync(path.join(root, 'renderer', 'vite.config.ts'))) {
  const rendererDigest = digestOf(['renderer', 'server/contracts', 'package.json', 'package-lock.json']);
  const rendererDir = path.join(dist, 'renderer');
  if (!args.has('--force') && stamps.renderer?.digest === rendererDigest && existsSync(path.join(rendererDir, 'index.html'))) say('UI is up to date');
  else {
    const staging = path.join(dist, `.staging-renderer-${process.pid}`);
    const vite = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--outDir', staging, '--emptyOutDir', ...(args.has('--quiet') ? ['--logLevel', 'warn'] : [])],
      { cwd: root, stdio: 'inherit' },
    );
    if (vite.status !== 0) {
      rmSync(staging, { recursive: true, force: true });
      process.exit(vite.status ?? 1);
    }
    // Pages already open keep loading their lazy chunks: old assets stay for three builds.
    stamps.renderer = { digest: rendererDigest, history: install('renderer', staging, rendererDir, ['assets/']) };
    saveStamps();
  }
}
