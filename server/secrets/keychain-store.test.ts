import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../start';
import { keychainSecretStore, probeKeychain } from './keychain-store';
import { keychainService } from './select-store';

/**
 * Runs against the real OS keychain. CI (.ci/run) provides an unlocked gnome-keyring in a
 * D-Bus session and sets PARLEY_TEST_KEYCHAIN=1, which makes these tests mandatory (they fail
 * without a keychain); on a developer machine without a Secret Service they show as skipped.
 */
const required = process.env.PARLEY_TEST_KEYCHAIN === '1';
const available = await (async () => {
  try {
    await probeKeychain(keychainSecretStore(`Parley test probe ${randomUUID()}`), 3000);
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(required || available)('keychain secret store (real OS keychain)', () => {
  it('round-trips, lists and deletes secrets in the OS keychain', async () => {
    const store = keychainSecretStore(`Parley test ${randomUUID()}`);
    await store.set('provider:compat:0', 'sk-keychain-value');
    await store.set('provider:local:0', 'other');
    await store.set('jwt-secret', 'jwt');
    expect(await store.get('provider:compat:0')).toBe('sk-keychain-value');
    expect((await store.list('provider:')).sort()).toEqual(['provider:compat:0', 'provider:local:0']);
    for (const name of ['provider:compat:0', 'provider:local:0', 'jwt-secret']) await store.delete(name);
    expect(await store.get('provider:compat:0')).toBeNull();
    expect(await store.list('')).toEqual([]);
  });

  it('keeps installations apart by service name', async () => {
    const a = keychainSecretStore(`Parley test ${randomUUID()}`);
    const b = keychainSecretStore(`Parley test ${randomUUID()}`);
    await a.set('jwt-secret', 'a-value');
    expect(await b.get('jwt-secret')).toBeNull();
    await a.delete('jwt-secret');
  });

  it('holds the master key of a service started with PARLEY_SECRET_STORE=keychain, with no key to the secrets file left in the data dir', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-keychain-'));
    const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent', logToStdout: false, env: { PARLEY_SECRET_STORE: 'keychain' } });
    try {
      expect(server.services.secrets.kind).toBe('keychain');
      const signup = await fetch(`${server.url}/api/v1/auths/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'K', email: 'k@example.com', password: 'k-password' }),
      });
      expect(signup.status).toBe(200);
      const installId = readFileSync(path.join(dataDir, 'install-id'), 'utf8').trim();
      // One master key in the keychain; the secrets themselves in the encrypted file, whose key is not on disk.
      const direct = keychainSecretStore(keychainService(installId));
      expect(await direct.get('master-key')).toMatch(/^[0-9a-f]{64}$/);
      expect(await direct.get('jwt-secret')).toBeNull();
      expect(existsSync(path.join(dataDir, 'secrets.enc'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'secrets.key'))).toBe(false);
      await direct.delete('master-key');
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
