import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Electron's `userData` folder for Parley on each OS (the app's own folder, which also holds
 * Chromium's profile): `%APPDATA%\Parley`, `~/Library/Application Support/Parley`,
 * `$XDG_CONFIG_HOME/Parley` (default `~/.config/Parley`).
 */
export function appUserDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'Parley');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Parley');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Parley');
}

/**
 * The one default data dir per OS, the same for `npm run serve` and the desktop app:
 * `data` inside the app's user-data folder (kept apart from Chromium's profile files).
 */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(appUserDataDir(platform, env), 'data');
}

/** Where earlier versions kept data by default: the headless service on Linux, and the desktop app's user-data folder itself. */
export function legacyDataDirs(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [appUserDataDir(platform, env)];
  if (platform !== 'win32' && platform !== 'darwin') dirs.push(path.join(env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'parley'));
  return dirs;
}

/** The entries of a data dir that belong to Parley (a legacy user-data folder also holds Chromium's). */
const DATA_ENTRIES = ['parley.db', 'parley.db-wal', 'parley.db-shm', 'uploads', 'indexes', 'logs', 'backups', 'install-id', 'secrets.enc', 'secrets.key', 'secret-store'];

/**
 * Moves Parley's data from a legacy default folder into `target` once, when `target` holds no
 * database yet and a legacy folder does. Returns the folder it moved from, if any.
 */
export function adoptLegacyDataDir(target: string, legacy: string[]): string | undefined {
  if (existsSync(path.join(target, 'parley.db'))) return undefined;
  const from = legacy.find((dir) => path.resolve(dir) !== path.resolve(target) && existsSync(path.join(dir, 'parley.db')));
  if (!from) return undefined;
  mkdirSync(target, { recursive: true, mode: 0o700 });
  const present = new Set(readdirSync(from));
  for (const name of DATA_ENTRIES) {
    if (present.has(name) && !existsSync(path.join(target, name))) renameSync(path.join(from, name), path.join(target, name));
  }
  return from;
}

/** The folder holding package.json, found by walking up from this module (works in dist/ and asar). */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
}

/** Where the built UI lives. */
export function defaultRendererDir(): string {
  return path.join(packageRoot(), 'dist', 'renderer');
}

/**
 * The path of a packaged file as it lies on disk: inside Electron's app.asar, files listed in
 * electron-builder's `asarUnpack` (native modules, Pyodide's .wasm and stdlib) live in
 * app.asar.unpacked beside it. Code that hands a folder to something reading by path outside
 * Electron's asar support (Pyodide's loader in a worker, a native library) uses this one.
 * Paths outside an archive, or with no unpacked copy, are returned as they are.
 */
export function unpackedPath(file: string, exists: (p: string) => boolean = existsSync): string {
  const unpacked = file.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
  return unpacked !== file && exists(unpacked) ? unpacked : file;
}
