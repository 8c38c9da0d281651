import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packageRoot } from '../platform/paths';

let cached: Promise<Buffer> | undefined;

/**
 * Parley's icon (128×128 PNG from `assets/icons`, which the desktop app and a clone both carry),
 * read once on first use. It answers `/static/favicon.png`, the picture Open WebUI clients give
 * the models they create.
 */
export function appIconPng(): Promise<Buffer> {
  cached ??= readFile(path.join(packageRoot(), 'assets', 'icons', '128x128.png')).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
