import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Windows has no POSIX modes; its per-user profile folder already keeps other accounts out. */
const POSIX = process.platform !== 'win32';

/** Creates `dir` (and parents) readable only by this OS account (0700), tightening an existing one. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (POSIX) chmodSync(dir, 0o700);
}

/** Makes existing files readable only by this OS account (0600); missing ones are skipped. */
export function restrictFiles(...files: string[]): void {
  if (!POSIX) return;
  for (const file of files) if (existsSync(file)) chmodSync(file, 0o600);
}

/** Writes a file readable only by this OS account, creating its folder privately. */
export function writePrivateFile(file: string, content: string | Uint8Array): void {
  ensurePrivateDir(path.dirname(file));
  writeFileSync(file, content, { mode: 0o600 });
  restrictFiles(file);
}
