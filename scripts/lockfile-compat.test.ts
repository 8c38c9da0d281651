import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareLockfile, isCompatible } from './lockfile-compat';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function installed(packages: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'parley-lock-'));
  dirs.push(root);
  for (const [where, version] of Object.entries(packages)) {
    mkdirSync(path.join(root, where), { recursive: true });
    writeFileSync(path.join(root, where, 'package.json'), JSON.stringify({ version }));
  }
  return root;
}

const lockfile = (packages: Record<string, object>) => JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'parley' }, ...packages } });

describe('an earlier commit reuses these node_modules', () => {
  it('when every locked package is installed at its version (other platforms\' optional ones aside, extra ones allowed)', () => {
    const root = installed({ 'node_modules/knex': '3.3.0', 'node_modules/a/node_modules/b': '1.0.0', 'node_modules/newer-only': '1.0.0' });
    const lock = lockfile({
      'node_modules/knex': { version: '3.3.0' },
      'node_modules/a/node_modules/b': { version: '1.0.0' },
      'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true, os: ['darwin'] },
    });
    expect(isCompatible(compareLockfile(lock, root))).toBe(true);
  });

  it('not when a package is missing or at another version, and says which', () => {
    const root = installed({ 'node_modules/node-llama-cpp': '3.21.1' });
    const difference = compareLockfile(lockfile({ 'node_modules/node-llama-cpp': { version: '3.22.1' }, 'node_modules/sqlite3': { version: '6.0.1' } }), root);
    expect(difference).toEqual({ missing: ['node_modules/sqlite3'], changed: ['node_modules/node-llama-cpp 3.22.1 → 3.21.1'] });
    expect(isCompatible(difference)).toBe(false);
  });
});
