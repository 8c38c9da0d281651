import type { ConfigService } from '../config';
import type {
  CompatSettings,
  CompatSettingsUpdate,
  CompatVerifyRequest,
  ConnectionFlags,
  ConnectionFlagsUpdate,
  LocalSettings,
  LocalSettingsUpdate,
  LocalVerifyRequest,
  ProviderEntryConfig,
  ProviderKind,
  VerifyResponse,
} from '../contracts/providers';
import type { Logger } from '../platform/log';
import type { SecretStore } from '../secrets';
import { createCompatProvider } from './compat-provider';
import { withDeadline } from './deadline';
import { createLocalProvider } from './local-provider';
import type { Provider } from './provider';
import { verifyFailureReason } from './verify-failure';
import { CompatSection, ConnectionsSection, LocalSection, providerSecretName, type ProviderEntry } from './provider-settings';

export interface ProviderSettingsDeps {
  config: ConfigService;
  secrets: SecretStore;
  log: Logger;
  /** How long verify waits for a provider, in ms. */
  verifyTimeoutMs?: number;
}

/** Keeps only configs of existing indexes. */
function trimConfigs(configs: Record<string, ProviderEntryConfig>, count: number): Record<string, ProviderEntryConfig> {
  return Object.fromEntries(Object.entries(configs).filter(([index]) => Number(index) < count));
}

/** The configs with any `key` taken out (keys never go to the database). */
function withoutKeys(configs: Record<string, ProviderEntryConfig>): Record<string, ProviderEntryConfig> {
  return Object.fromEntries(
    Object.entries(configs).map(([index, entry]) => {
      const { key: _key, ...rest } = entry;
      return [index, rest];
    }),
  );
}

/** Pads or cuts `keys` to `count` entries. */
function fitKeys(keys: readonly string[], count: number): string[] {
  return Array.from({ length: count }, (_, i) => keys[i] ?? '');
}

/**
 * Provider connection settings (section 4.9). URLs and per-entry configs are admin settings in
 * the database; keys go to the secret store (`provider:<kind>:<index>`) and are merged back
 * only when an admin reads the settings. Listeners hear about every change.
 */
export function createProviderSettings(deps: ProviderSettingsDeps) {
  const { config, secrets, log } = deps;
  const verifyTimeoutMs = deps.verifyTimeoutMs ?? 5_000;
  const listeners: Array<() => void> = [];
  let writes: Promise<unknown> = Promise.resolve();

  /** Runs updates one at a time, so keys and URLs never interleave. */
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const run = writes.then(work);
    writes = run.catch(() => undefined);
    return run;
  }
  const changed = () => {
    for (const listener of listeners) listener();
  };

  async function readKeys(kind: ProviderKind, count: number): Promise<string[]> {
    return Promise.all(Array.from({ length: count }, async (_, i) => (await secrets.get(providerSecretName(kind, i))) ?? ''));
  }

  /** Stores `keys` by index and removes keys of indexes that no longer exist. */
  async function writeKeys(kind: ProviderKind, keys: readonly string[]): Promise<void> {
    for (const [i, key] of keys.entries()) {
      if (key) await secrets.set(providerSecretName(kind, i), key);
      else await secrets.delete(providerSecretName(kind, i));
    }
    for (const name of await secrets.list(`provider:${kind}:`)) {
      const index = Number(name.slice(`provider:${kind}:`.length));
      if (!Number.isInteger(index) || index >= keys.length) await secrets.delete(name);
    }
  }

  async function getCompat(): Promise<CompatSettings> {
    const stored = await config.get(CompatSection);
    return {
      COMPAT_API_BASE_URLS: stored.COMPAT_API_BASE_URLS,
      COMPAT_API_KEYS: await readKeys('compat', stored.COMPAT_API_BASE_URLS.length),
      COMPAT_API_CONFIGS: stored.COMPAT_API_CONFIGS,
    };
  }

  async function getLocal(): Promise<LocalSettings> {
    const stored = await config.get(LocalSection);
    const keys = await readKeys('local', stored.LOCAL_BASE_URLS.length);
    const configs: Record<string, ProviderEntryConfig> = { ...stored.LOCAL_API_CONFIGS };
    keys.forEach((key, i) => {
      if (key) configs[String(i)] = { ...configs[String(i)], key };
    });
    return { LOCAL_BASE_URLS: stored.LOCAL_BASE_URLS, LOCAL_API_CONFIGS: configs };
  }

  async function verify(provider: Provider): Promise<VerifyResponse> {
    try {
      const models = await withDeadline(verifyTimeoutMs, (signal) => provider.listModels(signal));
      return { status: true, model_count: models.length };
    } catch (error) {
      const detail = verifyFailureReason(error, provider.url);
      log.info({ provider: provider.kind, url: provider.url, reason: detail }, 'provider verification failed');
      return { status: false, detail };
    }
  }

  return {
    getCompat,
    getLocal,

    /** Applies any subset; keys and configs follow the URLs by index (padded or cut to fit). */
    updateCompat(patch: CompatSettingsUpdate): Promise<CompatSettings> {
      return serial(async () => {
        const current = await getCompat();
        const urls = patch.COMPAT_API_BASE_URLS ?? current.COMPAT_API_BASE_URLS;
        const keys = fitKeys(patch.COMPAT_API_KEYS ?? current.COMPAT_API_KEYS, urls.length);
        const configs = trimConfigs(patch.COMPAT_API_CONFIGS ?? current.COMPAT_API_CONFIGS, urls.length);
        // A `key` put in a compat config is a key all the same: it goes to the secret store, never the database.
        for (const [index, entry] of Object.entries(configs)) {
          if (entry.key && !keys[Number(index)]) keys[Number(index)] = entry.key;
        }
        await writeKeys('compat', keys);
        await config.set(CompatSection, { COMPAT_API_BASE_URLS: urls, COMPAT_API_CONFIGS: withoutKeys(configs) });
        log.info({ count: urls.length }, 'compatible provider settings updated');
        changed();
        return getCompat();
      });
    },

    /** Applies any subset; a config's `key` goes to the secret store. */
    updateLocal(patch: LocalSettingsUpdate): Promise<LocalSettings> {
      return serial(async () => {
        const current = await getLocal();
        const urls = patch.LOCAL_BASE_URLS ?? current.LOCAL_BASE_URLS;
        const configs = trimConfigs(patch.LOCAL_API_CONFIGS ?? current.LOCAL_API_CONFIGS, urls.length);
        const keys = Array.from({ length: urls.length }, (_, i) => configs[String(i)]?.key ?? '');
        await writeKeys('local', keys);
        await config.set(LocalSection, { LOCAL_BASE_URLS: urls, LOCAL_API_CONFIGS: withoutKeys(configs) });
        log.info({ count: urls.length }, 'local provider settings updated');
        changed();
        return getLocal();
      });
    },

    async getFlags(): Promise<ConnectionFlags> {
      return config.get(ConnectionsSection);
    },
    async updateFlags(patch: ConnectionFlagsUpdate): Promise<ConnectionFlags> {
      const next = await config.update(ConnectionsSection, patch);
      changed();
      return next;
    },

    /** Whether the provider lists its models with that key within a few seconds: how many, or why not. */
    verifyCompat(request: CompatVerifyRequest): Promise<VerifyResponse> {
      return verify(createCompatProvider({ url: request.url, key: request.key }));
    },
    verifyLocal(request: LocalVerifyRequest): Promise<VerifyResponse> {
      return verify(createLocalProvider({ url: request.url, key: request.key }));
    },

    /** Every configured provider URL (enabled or not), with its key, compat first. */
    async entries(): Promise<ProviderEntry[]> {
      const [compat, local] = await Promise.all([getCompat(), getLocal()]);
      const compatEntries = compat.COMPAT_API_BASE_URLS.map((url, index): ProviderEntry => {
        const entry = compat.COMPAT_API_CONFIGS[String(index)] ?? {};
        return { kind: 'compat', index, url, key: compat.COMPAT_API_KEYS[index] ?? '', config: entry, enabled: entry.enable !== false };
      });
      const localEntries = local.LOCAL_BASE_URLS.map((url, index): ProviderEntry => {
        const { key = '', ...entry } = local.LOCAL_API_CONFIGS[String(index)] ?? {};
        return { kind: 'local', index, url, key, config: entry, enabled: entry.enable !== false };
      });
      return [...compatEntries, ...localEntries];
    },

    /** Seeds a first provider from the environment when none of that kind is configured. */
    async seed(seed: { compatUrl?: string; compatKey?: string; localUrl?: string }): Promise<void> {
      if (seed.compatUrl && (await config.get(CompatSection)).COMPAT_API_BASE_URLS.length === 0) {
        await this.updateCompat({ COMPAT_API_BASE_URLS: [seed.compatUrl.replace(/\/+$/, '')], COMPAT_API_KEYS: [seed.compatKey ?? ''] });
      }
      if (seed.localUrl && (await config.get(LocalSection)).LOCAL_BASE_URLS.length === 0) {
        await this.updateLocal({ LOCAL_BASE_URLS: [seed.localUrl.replace(/\/+$/, '')] });
      }
    },

    /** Calls `listener` after every settings change (to drop cached clients and model lists). */
    onChange(listener: () => void): void {
      listeners.push(listener);
    },
  };
}
export type ProviderSettings = ReturnType<typeof createProviderSettings>;
