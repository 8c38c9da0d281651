import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../platform/log';
import { writePrivateFile } from '../platform/private-files';
import { StartRefused } from '../platform/start-refused';
import { fileSecretStore } from './file-store';
import { keychainSecretStore, loadKeytar, probeKeychain, type Keytar } from './keychain-store';
import type { SecretStore } from './secret-store';

export interface SelectStoreOptions {
  mode: 'keychain' | 'file' | 'auto';
  dataDir: string;
  /** Distinguishes this installation's keychain entries from other data dirs'. */
  installId: string;
  masterKey?: string;
  log: Logger;
  /** The keychain binding (tests pass a stand-in). */
  keytar?: () => Keytar;
}

/**
 * Where this data dir's secrets live, remembered in `<dataDir>/secret-store` at the first start:
 * - `keychain-key`: the encrypted secrets file, its master key in the OS keychain (one small
 *   entry, so no per-credential size limit such as Windows' 2,560 bytes applies);
 * - `keychain`: one keychain entry per secret (installations made before `keychain-key`);
 * - `file`: the encrypted secrets file with its key beside it (no keychain on this machine).
 * Remembering it means a keychain that is locked at one start is an error to fix (or retry),
 * never a silent switch to another store that would lose every key and the sign-in key.
 */
export const StoreChoice = z.enum(['keychain-key', 'keychain', 'file']);
export type StoreChoice = z.infer<typeof StoreChoice>;

const CHOICE_FILE = 'secret-store';
const MASTER_KEY_ENTRY = 'master-key';

/** An install id names keychain entries: letters, digits and dashes only, so it cannot reach other services' entries. */
export const INSTALL_ID = /^[A-Za-z0-9-]{4,64}$/;

/** The keychain service name of one installation. */
export function keychainService(installId: string): string {
  if (!INSTALL_ID.test(installId)) throw new Error(`The install id ${JSON.stringify(installId.slice(0, 80))} is not valid (letters, digits and dashes only)`);
  return `Parley (${installId})`;
}

/** The remembered choice, or undefined before the first start (or when the file is damaged). */
export function readStoreChoice(dataDir: string): StoreChoice | undefined {
  const file = path.join(dataDir, CHOICE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = z.object({ store: StoreChoice }).safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.store : undefined;
  } catch {
    return undefined;
  }
}

function rememberChoice(dataDir: string, store: StoreChoice): void {
  writePrivateFile(path.join(dataDir, CHOICE_FILE), `${JSON.stringify({ store })}\n`);
}

function unavailable(error: unknown, remembered?: StoreChoice): Error {
  const reason = error instanceof Error ? error.message : String(error);
  const since = remembered ? ' Parley keeps this data folder\'s keys there; unlock the keychain (or sign in to your account again) and start Parley again.' : '';
  return new StartRefused(`The OS keychain is not available: ${reason}.${since}`);
}

/** The file store whose master key lives in the keychain, created there on first use. */
async function keychainKeyedFile(keychain: SecretStore, dataDir: string, create: boolean): Promise<SecretStore> {
  let key = await keychain.get(MASTER_KEY_ENTRY);
  if (!key) {
    if (!create || existsSync(path.join(dataDir, 'secrets.enc'))) throw new Error('the master key of the secrets file is missing from the keychain');
    key = randomBytes(32).toString('hex');
    await keychain.set(MASTER_KEY_ENTRY, key);
  }
  return { ...fileSecretStore(dataDir, key), kind: 'keychain' };
}

/**
 * Picks the SecretStore. `file` is the encrypted file. Otherwise the remembered store of this
 * data dir is used, and a keychain that fails then is an error ("The OS keychain is not
 * available…", which the desktop app offers to retry). At the first start: the keychain-keyed
 * file when the keychain works (an older install with per-secret entries keeps them), else in
 * `auto` the encrypted file with one warning line, and `keychain` forced is an error.
 */
export async function selectSecretStore(options: SelectStoreOptions): Promise<SecretStore> {
  const { dataDir, log } = options;
  const remembered = readStoreChoice(dataDir);
  if (options.mode === 'file' || (remembered === 'file' && options.mode === 'auto')) {
    if (remembered !== 'file') rememberChoice(dataDir, 'file');
    return fileSecretStore(dataDir, options.masterKey);
  }

  let keychain: SecretStore;
  try {
    keychain = keychainSecretStore(keychainService(options.installId), (options.keytar ?? loadKeytar)());
    await probeKeychain(keychain);
  } catch (error) {
    if (options.mode === 'keychain' || (remembered !== undefined && remembered !== 'file')) throw unavailable(error, remembered);
    log.warn({ reason: (error as Error).message }, 'OS keychain not available; keeping secrets in an encrypted file in the data dir');
    rememberChoice(dataDir, 'file');
    return fileSecretStore(dataDir, options.masterKey);
  }

  if (remembered === 'keychain') return keychain;
  if (remembered === 'keychain-key') {
    try {
      return await keychainKeyedFile(keychain, dataDir, false);
    } catch (error) {
      throw unavailable(error, remembered);
    }
  }
  // First start with this choice file: an install that already keeps secrets one per entry stays so.
  const existing = await keychain.list('');
  if (existing.length > 0 && !existing.includes(MASTER_KEY_ENTRY)) {
    rememberChoice(dataDir, 'keychain');
    return keychain;
  }
  if (remembered === 'file' && existsSync(path.join(dataDir, 'secrets.enc'))) return fileSecretStore(dataDir, options.masterKey);
  const store = await keychainKeyedFile(keychain, dataDir, true);
  rememberChoice(dataDir, 'keychain-key');
  return store;
}
