import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSecretStore } from './file-store';

describe('encrypted file secret store', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-secrets-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps values across reopening, and never writes them in clear text', async () => {
    const dir = tempDir();
    const store = fileSecretStore(dir);
    await store.set('provider:compat:0', 'sk-live-very-secret-value');
    await store.set('jwt-secret', 'another');
    const reopened = fileSecretStore(dir);
    expect(await reopened.get('provider:compat:0')).toBe('sk-live-very-secret-value');
    expect(await reopened.list('provider:')).toEqual(['provider:compat:0']);
    const onDisk = readFileSync(path.join(dir, 'secrets.enc'), 'utf8');
    expect(onDisk).not.toContain('sk-live-very-secret-value');
    expect(onDisk).not.toContain('provider:compat');
  });

  it('deletes values', async () => {
    const dir = tempDir();
    const store = fileSecretStore(dir);
    await store.set('a', '1');
    await store.delete('a');
    await store.delete('never-set');
    expect(await fileSecretStore(dir).get('a')).toBeNull();
  });

  it('keeps its key file private to the owner', () => {
    const dir = tempDir();
    fileSecretStore(dir);
    if (process.platform !== 'win32') expect(statSync(path.join(dir, 'secrets.key')).mode & 0o077).toBe(0);
  });

  it('uses a master key from the environment instead of a key file, and refuses the wrong one', async () => {
    const dir = tempDir();
    const key = 'a'.repeat(64);
    await fileSecretStore(dir, key).set('x', 'y');
    expect(await fileSecretStore(dir, key).get('x')).toBe('y');
    expect(() => fileSecretStore(dir, 'b'.repeat(64))).toThrow();
  });

  it('serialises concurrent writes without losing any', async () => {
    const dir = tempDir();
    const store = fileSecretStore(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, `v${i}`)));
    const reopened = fileSecretStore(dir);
    expect((await reopened.list('k')).length).toBe(20);
  });
});
