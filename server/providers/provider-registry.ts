import type { ProviderKind } from '../contracts/providers';
import { createCompatProvider } from './compat-provider';
import { createLocalProvider } from './local-provider';
import type { Provider } from './provider';
import type { ProviderEntry } from './provider-settings';
import type { ProviderSettings } from './providers.service';

/** A configured, enabled provider: where it is, its per-entry config, and a ready client. */
export interface ProviderHandle extends Omit<ProviderEntry, 'key'> {
  provider: Provider;
}

/**
 * The live providers, built from the settings and rebuilt after every settings change.
 * Keys are read from the secret store once per change, not per request.
 */
export function createProviderRegistry(settings: ProviderSettings, builtin?: () => Promise<ProviderHandle | undefined>) {
  let handles: Promise<ProviderHandle[]> | undefined;

  function build(): Promise<ProviderHandle[]> {
    return settings.entries().then((entries) =>
      entries.map(({ key, ...entry }) => ({
        ...entry,
        provider: entry.kind === 'compat' ? createCompatProvider({ url: entry.url, key }) : createLocalProvider({ url: entry.url, key }),
      })),
    );
  }
  settings.onChange(() => {
    handles = undefined;
  });
  const configured = () => {
    handles ??= build().catch((error: unknown) => {
      handles = undefined;
      throw error;
    });
    return handles;
  };
  /** The configured providers, then the built-in one (server/builtin) while it is enabled. */
  const all = async (): Promise<ProviderHandle[]> => {
    const extra = await builtin?.();
    return extra ? [...(await configured()), extra] : configured();
  };

  return {
    /** Every enabled provider, compat ones first, each in URL order, the built-in one last. */
    async list(): Promise<ProviderHandle[]> {
      return (await all()).filter((h) => h.enabled);
    },
    /** The enabled provider at `index` of `kind`, if there is one. */
    async get(kind: ProviderKind, index: number): Promise<ProviderHandle | undefined> {
      return (await all()).find((h) => h.kind === kind && h.index === index && h.enabled);
    },
  };
}
export type ProviderRegistry = ReturnType<typeof createProviderRegistry>;
