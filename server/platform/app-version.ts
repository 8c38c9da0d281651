import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './paths';

let cachedVersion: string | undefined;

/** The version in package.json, read once. */
export function appVersion(): string {
  if (cachedVersion === undefined) {
    try {
      cachedVersion = String((JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }).version ?? '0.0.0');
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return cachedVersion;
}
