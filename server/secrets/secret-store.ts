/**
 * Where secrets live: provider keys, tool-server keys, OAuth tokens, the JWT signing key.
 * Never SQLite, never logs. Keys are short names such as `jwt-secret` or `provider:compat:0`.
 */
export interface SecretStore {
  /** Which implementation this is, for the start-up log line. */
  readonly kind: 'keychain' | 'file' | 'memory';
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** Every stored name beginning with `prefix`. */
  list(prefix: string): Promise<string[]>;
}

/** An in-memory store, for unit tests of services that need one. */
export function memorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    kind: 'memory',
    get: async (name) => values.get(name) ?? null,
    set: async (name, value) => {
      values.set(name, value);
    },
    delete: async (name) => {
      values.delete(name);
    },
    list: async (prefix) => [...values.keys()].filter((k) => k.startsWith(prefix)),
  };
}
