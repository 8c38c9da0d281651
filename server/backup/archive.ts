import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { restrictFiles } from '../platform/private-files';
import { loadYauzl, loadYazl } from '../platform/lazy-libraries';

/** What a backup archive says about itself. */
export interface BackupManifest {
  format: 'parley-backup';
  version: 1;
  created_at: number;
  migrations: string[];
}

/** Every regular file under `dir`, as paths relative to `base` with forward slashes. */
export function listFiles(dir: string, base: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, base));
    else if (entry.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

/** Writes a ZIP of `files` (relative to `base`), with `extra` entries given as buffers; readable by this OS account only (0600). */
export async function writeZip(target: string, base: string, files: string[], extra: Record<string, Buffer>): Promise<void> {
  const { ZipFile } = await loadYazl();
  const zip = new ZipFile();
  for (const [name, data] of Object.entries(extra)) zip.addBuffer(data, name);
  for (const file of files) {
    const full = path.join(base, file);
    if (existsSync(full)) zip.addFile(full, file);
  }
  zip.end();
  // A backup holds every chat and the keys' file: this OS account only.
  await pipeline(zip.outputStream, createWriteStream(target, { mode: 0o600 }));
  restrictFiles(target);
}

/** Limits that keep a hostile archive from filling the disk or escaping the folder. */
export interface ExtractLimits {
  maxEntries: number;
  maxTotalBytes: number;
}

/** A name that stays inside the target folder: relative, no `..`, no drive letters, no NUL. */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.includes('\0') || name.includes('\\')) return false;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return false;
  return !name.split('/').some((part) => part === '..');
}

/**
 * Extracts a ZIP into `target`, refusing unsafe names (zip slip), symlinks, too many entries
 * and more bytes than allowed — counted while inflating, so a lying header cannot pass.
 */
export async function extractZip(source: string, target: string, limits: ExtractLimits): Promise<string[]> {
  const { open } = await loadYauzl();
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    open(source, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (err, file) => (err || !file ? reject(err ?? new Error('unreadable archive')) : resolve(file))),
  );
  const written: string[] = [];
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        const fail = (why: string) => {
          zip.close();
          reject(new Error(why));
        };
        if (written.length >= limits.maxEntries) return fail(`The archive has more than ${limits.maxEntries} entries`);
        if (!isSafeEntryName(entry.fileName)) return fail(`Unsafe path in archive: ${entry.fileName}`);
        const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
        if (mode === 0o120000) return fail(`Symbolic links are not allowed: ${entry.fileName}`);
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        const dest = path.join(target, entry.fileName);
        mkdirSync(path.dirname(dest), { recursive: true });
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return fail(err?.message ?? 'unreadable entry');
          stream.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > limits.maxTotalBytes) {
              stream.destroy(new Error(`The archive expands beyond ${limits.maxTotalBytes} bytes`));
            }
          });
          pipeline(stream, createWriteStream(dest)).then(
            () => {
              written.push(entry.fileName);
              zip.readEntry();
            },
            (e: Error) => fail(e.message),
          );
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return written;
}

/** Size of a file in bytes. */
export function fileSize(file: string): number {
  return statSync(file).size;
}
