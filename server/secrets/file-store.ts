import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DataDirError } from '../platform/data-dir';
import { isMasterKey, parseMasterKey } from '../platform/master-key';
import type { SecretStore } from './secret-store';

const KEY_FILE = 'secrets.key';
const DATA_FILE = 'secrets.enc';
const VERSION = 1;

function loadOrCreateKey(dir: string, provided?: string): Buffer {
  if (provided) return parseMasterKey(provided);
  const file = path.join(dir, KEY_FILE);
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    if (!isMasterKey(text)) throw new DataDirError(`${file} is damaged (it holds no 32-byte key); restore it from a backup of this data dir, or give the key with PARLEY_SECRET_KEY`);
    return parseMasterKey(text);
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return key;
}

function encrypt(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return JSON.stringify({ v: VERSION, iv: iv.toString('base64'), tag: tag.toString('base64'), data: body.toString('base64') });
}

function decrypt(key: Buffer, text: string): string {
  const box = JSON.parse(text) as { v: number; iv: string; tag: string; data: string };
  if (box.v !== VERSION) throw new Error(`Unsupported secret file version ${box.v}`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(box.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(box.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(box.data, 'base64')), decipher.final()]).toString('utf8');
}

/**
 * The fallback SecretStore: one AES-256-GCM encrypted JSON file in the data dir. The master
 * key is `PARLEY_SECRET_KEY` when given, else a random key kept beside it with mode 0600.
 * Writes go to a temporary file first and are renamed into place, so a crash never leaves
 * half a file.
 */
export function fileSecretStore(dataDir: string, masterKey?: string): SecretStore {
  mkdirSync(dataDir, { recursive: true });
  const key = loadOrCreateKey(dataDir, masterKey);
  const file = path.join(dataDir, DATA_FILE);
  let values: Record<string, string> = existsSync(file) ? (JSON.parse(decrypt(key, readFileSync(file, 'utf8'))) as Record<string, string>) : {};
  let chain: Promise<void> = Promise.resolve();

  const persist = (next: Record<string, string>) => {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, encrypt(key, JSON.stringify(next)), { mode: 0o600 });
    renameSync(tmp, file);
    values = next;
  };
  const serial = (work: () => void) => {
    chain = chain.then(work, work);
    return chain;
  };

  return {
    kind: 'file',
    get: async (name) => values[name] ?? null,
    set: (name, value) => serial(() => persist({ ...values, [name]: value })),
    delete: (name) =>
      serial(() => {
        if (!(name in values)) return;
        const { [name]: _removed, ...rest } = values;
        persist(rest);
      }),
    list: async (prefix) => Object.keys(values).filter((k) => k.startsWith(prefix)),
  };
}
