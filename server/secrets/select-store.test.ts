import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../platform/log';
import type { Keytar } from './keychain-store';
import { keychainService, readStoreChoice, selectSecretStore } from './select-store';

/** An OS keychain stand-in that can be locked, with Windows' size limit per credential. */
class FakeKeychain implements Keytar {
  entries = new Map<string, string>();
  locked = false;
  private check(value?: string) {
    if (this.locked) throw new Error('User interaction is not allowed');
    if (value !== undefined && Buffer.byteLength(value) > 2560) throw new Error('The stub received bad data (credential too large)');
  }
  async getPassword(service: string, account: string) {
    this.check();
    return this.entries.get(`${service}/${account}`) ?? null;
  }
  async setPassword(service: string, account: string, password: string) {
    this.check(password);
    this.entries.set(`${service}/${account}`, password);
  }
  async deletePassword(service: string, account: string) {
    this.check();
    return this.entries.delete(`${service}/${account}`);
  }
  async findCredentials(service: string) {
    this.check();
    return [...this.entries].filter(([k]) => k.startsWith(`${service}/`)).map(([k, password]) => ({ account: k.slice(service.length + 1), password }));
  }
}

const warnings: string[] = [];
const log = { warn: (_o: unknown, msg: string) => void warnings.push(msg), info: () => undefined } as unknown as Logger;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  warnings.length = 0;
});
function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-store-'));
  dirs.push(dir);
  return dir;
}

describe('choosing and remembering the secret store', () => {
  it('a new install keeps one master key in the keychain and the secrets in the encrypted file, so long values fit', async () => {
    const dir = dataDir();
    const keychain = new FakeKeychain();
    const store = await selectSecretStore({ mode: 'auto', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain });
    const oauthToken = 'x'.repeat(6000); // more than Windows allows in one credential
    await store.set('oauth:server', oauthToken);
    expect(readStoreChoice(dir)).toBe('keychain-key');
    expect([...keychain.entries.keys()]).toEqual([`${keychainService('abcd1234')}/master-key`]);
    expect(existsSync(path.join(dir, 'secrets.key'))).toBe(false);
    expect(readFileSync(path.join(dir, 'secrets.enc'), 'utf8')).not.toContain('xxxx');

    const again = await selectSecretStore({ mode: 'auto', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain });
    expect(await again.get('oauth:server')).toBe(oauthToken);
  });

  it('a keychain locked at a later start is an error, never a silent switch to a new file store', async () => {
    const dir = dataDir();
    const keychain = new FakeKeychain();
    const first = await selectSecretStore({ mode: 'auto', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain });
    await first.set('jwt-secret', 'signing-key');
    keychain.locked = true;
    await expect(selectSecretStore({ mode: 'auto', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain })).rejects.toThrow(/^The OS keychain is not available: .*unlock the keychain/);
    expect(readStoreChoice(dir)).toBe('keychain-key');
    keychain.locked = false;
    const unlocked = await selectSecretStore({ mode: 'auto', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain });
    expect(await unlocked.get('jwt-secret')).toBe('signing-key');
  });

  it('without a keychain, auto falls back to the file once with a warning, and stays there when a keychain appears', async () => {
    const dir = dataDir();
    const keychain = new FakeKeychain();
    keychain.locked = true;
    const store = await selectSecretStore({ mode: 'auto', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain });
    expect(store.kind).toBe('file');
    expect(warnings).toHaveLength(1);
    await store.set('jwt-secret', 'signing-key');
    keychain.locked = false;
    const later = await selectSecretStore({ mode: 'auto', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain });
    expect(later.kind).toBe('file');
    expect(await later.get('jwt-secret')).toBe('signing-key');
    expect(keychain.entries.size).toBe(0);
  });

  it('an install that already keeps one keychain entry per secret keeps them', async () => {
    const dir = dataDir();
    const keychain = new FakeKeychain();
    keychain.entries.set(`${keychainService('abcd1234')}/jwt-secret`, 'old-signing-key');
    const store = await selectSecretStore({ mode: 'keychain', dataDir: dir, installId: 'abcd1234', log, keytar: () => keychain });
    expect(await store.get('jwt-secret')).toBe('old-signing-key');
    expect(readStoreChoice(dir)).toBe('keychain');
  });

  it('refuses an install id that is not letters, digits and dashes', () => {
    expect(() => keychainService('abc) (other')).toThrow(/not valid/);
    expect(() => keychainService('')).toThrow(/not valid/);
    expect(keychainService('1a2b3c4d')).toBe('Parley (1a2b3c4d)');
  });
});
