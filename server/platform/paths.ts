import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The OS's per-user application data folder for Parley. */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Parley');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Parley');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'parley');
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
