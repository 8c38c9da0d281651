import { z } from 'zod';
import { defineSection } from '../config';
import { ConnectionFlags, DEFAULT_CONNECTION_FLAGS, ProviderEntryConfig, type ProviderKind } from '../contracts/providers';

const StoredConfigs = z.record(z.string(), ProviderEntryConfig);

/** Compatible providers as stored: URLs and per-entry configs. Keys live in the secret store. */
export const CompatSection = defineSection(
  'providers.compat',
  z.object({ COMPAT_API_BASE_URLS: z.array(z.string()), COMPAT_API_CONFIGS: StoredConfigs }),
  { COMPAT_API_BASE_URLS: [], COMPAT_API_CONFIGS: {} },
);

/** Local providers as stored; a config's `key` is moved to the secret store before saving. */
export const LocalSection = defineSection(
  'providers.local',
  z.object({ LOCAL_BASE_URLS: z.array(z.string()), LOCAL_API_CONFIGS: StoredConfigs }),
  { LOCAL_BASE_URLS: [], LOCAL_API_CONFIGS: {} },
);

/** Direct connection flags. */
export const ConnectionsSection = defineSection<ConnectionFlags>('connections', ConnectionFlags, DEFAULT_CONNECTION_FLAGS);

/** Name of the secret holding the key of provider `index` of `kind`. */
export function providerSecretName(kind: ProviderKind, index: number): string {
  return `provider:${kind}:${index}`;
}

/** One configured provider URL with everything needed to reach it. */
export interface ProviderEntry {
  kind: ProviderKind;
  /** Position in its URL list: the stable address other settings (configs, keys) use. */
  index: number;
  url: string;
  /** The bearer key, '' for none. */
  key: string;
  /** Per-entry config without the key. */
  config: ProviderEntryConfig;
  /** `config.enable` unless explicitly false. */
  enabled: boolean;
}
