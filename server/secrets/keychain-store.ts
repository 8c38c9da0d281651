import { createRequire } from 'node:module';
import type { SecretStore } from './secret-store';

export interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/** Loads keytar lazily: it is a native module that may be missing or unusable on this machine. */
export function loadKeytar(): Keytar {
  const require = createRequire(import.meta.url);
  return require('keytar') as Keytar;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux) via
 * keytar. `service` namespaces the entries of one Parley installation.
 */
export function keychainSecretStore(service: string, keytar: Keytar = loadKeytar()): SecretStore {
  return {
    kind: 'keychain',
    get: (name) => keytar.getPassword(service, name),
    set: (name, value) => keytar.setPassword(service, name, value),
    delete: async (name) => {
      await keytar.deletePassword(service, name);
    },
    list: async (prefix) =>
      (await keytar.findCredentials(service)).map((c) => c.account).filter((account) => account.startsWith(prefix)),
  };
}

/** Checks the keychain answers by writing, reading and deleting a probe entry. */
export async function probeKeychain(store: SecretStore, timeoutMs = 3000): Promise<void> {
  const name = `probe:${process.pid}`;
  await withTimeout(store.set(name, 'ok'), timeoutMs, 'The keychain');
  const read = await withTimeout(store.get(name), timeoutMs, 'The keychain');
  await withTimeout(store.delete(name), timeoutMs, 'The keychain');
  if (read !== 'ok') throw new Error('The keychain did not return what was stored');
}
