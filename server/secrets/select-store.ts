import type { Logger } from '../platform/log';
import { fileSecretStore } from './file-store';
import { keychainSecretStore, probeKeychain } from './keychain-store';
import type { SecretStore } from './secret-store';

export interface SelectStoreOptions {
  mode: 'keychain' | 'file' | 'auto';
  dataDir: string;
  /** Distinguishes this installation's keychain entries from other data dirs'. */
  installId: string;
  masterKey?: string;
  log: Logger;
}

/** The keychain service name of one installation. */
export function keychainService(installId: string): string {
  return `Parley (${installId})`;
}

/**
 * Picks the SecretStore: the keychain when asked for or when `auto` finds it working, else the
 * encrypted file with one warning line. `keychain` forced but unusable is an error.
 */
export async function selectSecretStore(options: SelectStoreOptions): Promise<SecretStore> {
  if (options.mode === 'file') return fileSecretStore(options.dataDir, options.masterKey);
  try {
    const store = keychainSecretStore(keychainService(options.installId));
    await probeKeychain(store);
    return store;
  } catch (error) {
    if (options.mode === 'keychain') {
      throw new Error(`The OS keychain is not available: ${(error as Error).message}`);
    }
    options.log.warn(
      { reason: (error as Error).message },
      'OS keychain not available; keeping secrets in an encrypted file in the data dir',
    );
    return fileSecretStore(options.dataDir, options.masterKey);
  }
}
