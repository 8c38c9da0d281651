import type { ConfigService } from '../config';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { SecretStore } from '../secrets';
import { createModelCatalog } from './model-catalog';
import { createProviderRegistry } from './provider-registry';
import { createProviderSettings } from './providers.service';
import type { ProviderHandle } from './provider-registry';

export interface ProvidersDeps {
  config: ConfigService;
  secrets: SecretStore;
  log: Logger;
  clock: Clock;
  /** Deadlines in ms (defaults: list 3 s, verify 5 s) and the cache refresh age (60 s). */
  listTimeoutMs?: number;
  verifyTimeoutMs?: number;
  refreshAfterMs?: number;
  /** The built-in provider's handle while it is enabled (server/builtin). */
  builtin?: () => Promise<ProviderHandle | undefined>;
}

/**
 * The providers domain as other domains use it:
 * - `settings`: the connection settings (4.9) and keys;
 * - `get(kind, index)` / `list()`: enabled provider handles with ready clients;
 * - `catalog`: merged base models; `forModel(id)` finds the provider answering a base model id.
 */
export function createProviders(deps: ProvidersDeps) {
  const settings = createProviderSettings({ config: deps.config, secrets: deps.secrets, log: deps.log, verifyTimeoutMs: deps.verifyTimeoutMs });
  const registry = createProviderRegistry(settings, deps.builtin);
  const catalog = createModelCatalog({ registry, settings, log: deps.log, clock: deps.clock, listTimeoutMs: deps.listTimeoutMs, refreshAfterMs: deps.refreshAfterMs });
  return {
    settings,
    catalog,
    get: registry.get,
    list: registry.list,
    forModel: catalog.find,
  };
}
export type Providers = ReturnType<typeof createProviders>;
