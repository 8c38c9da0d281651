import type { BaseModel } from '../contracts/models';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import { withDeadline } from './deadline';
import type { ProviderModel } from './provider';
import type { ProviderHandle, ProviderRegistry } from './provider-registry';
import type { ProviderSettings } from './providers.service';

/** A base model and the provider that answers it. */
export interface CatalogEntry {
  model: BaseModel;
  handle: ProviderHandle;
  /** The id to send to the provider (prefix removed). */
  providerModelId: string;
}

export interface ModelCatalogDeps {
  registry: ProviderRegistry;
  settings: ProviderSettings;
  log: Logger;
  clock: Clock;
  /** How long one provider may take to list its models, in ms. */
  listTimeoutMs?: number;
  /** Age after which a cached list is refreshed in the background, in ms. */
  refreshAfterMs?: number;
}

const handleKey = (h: ProviderHandle) => `${h.kind}:${h.index}`;

/** An enabled provider whose model list could not be read at the last try. */
export interface UnreachableProvider {
  kind: ProviderHandle['kind'];
  index: number;
  url: string;
  reason: string;
  /** When it was last tried (epoch seconds). */
  at: number;
}

/**
 * The base models of every enabled provider, merged: each provider's allow-list (`model_ids`)
 * and `prefix_id` applied, the first provider winning when two offer the same id. Providers are
 * asked in parallel, each with a deadline; one that fails or hangs is skipped with a warning.
 * With ENABLE_BASE_MODELS_CACHE on, lists come from a cache refreshed in the background.
 */
export function createModelCatalog(deps: ModelCatalogDeps) {
  const { registry, settings, log, clock } = deps;
  const listTimeoutMs = deps.listTimeoutMs ?? 3_000;
  const refreshAfterMs = deps.refreshAfterMs ?? 60_000;

  let generation = 0;
  let cache: { entries: CatalogEntry[]; at: number } | undefined;
  let refreshing: Promise<CatalogEntry[]> | undefined;
  let lookup: Promise<CatalogEntry[]> | undefined;
  /** Where each id was last seen, kept across provider hiccups, for resolving chats. */
  let lastSeen = new Map<string, CatalogEntry>();
  /** Each provider's entries as last listed successfully. */
  let lastByHandle = new Map<string, CatalogEntry[]>();
  /** Providers whose last model listing failed, and why. */
  let unreachable = new Map<string, UnreachableProvider>();

  const forget = () => {
    generation += 1;
    cache = undefined;
    refreshing = undefined;
    lastSeen = new Map();
    lastByHandle = new Map();
    unreachable = new Map();
  };
  settings.onChange(forget);

  function toEntries(handle: ProviderHandle, models: ProviderModel[]): CatalogEntry[] {
    const allow = handle.config.model_ids?.length ? new Set(handle.config.model_ids) : undefined;
    const prefix = handle.config.prefix_id?.trim();
    const now = clock.now();
    return models
      .filter((m) => !allow || allow.has(m.id))
      .map((m) => ({
        handle,
        providerModelId: m.id,
        model: {
          id: prefix ? `${prefix}.${m.id}` : m.id,
          name: m.name,
          object: 'model',
          created: m.created ?? now,
          owned_by: handle.kind,
          base_model_id: null,
          provider: handle.kind,
          provider_index: handle.index,
          provider_model_id: m.id,
          tags: handle.config.tags ?? [],
          is_active: true,
        },
      }));
  }

  /** Asks every enabled provider now; failures are skipped (and logged). */
  async function collect(): Promise<CatalogEntry[]> {
    const startedAt = generation;
    const handles = await registry.list();
    const results = await Promise.all(
      handles.map(async (handle) => {
        try {
          const models = await withDeadline(listTimeoutMs, (signal) => handle.provider.listModels(signal));
          if (startedAt === generation) unreachable.delete(handleKey(handle));
          return { handle, entries: toEntries(handle, models) };
        } catch (error) {
          if (startedAt === generation) unreachable.set(handleKey(handle), { kind: handle.kind, index: handle.index, url: handle.url, reason: (error as Error).message, at: clock.now() });
          log.warn({ provider: handle.kind, index: handle.index, url: handle.url, reason: (error as Error).message }, 'provider skipped: its model list failed');
          return { handle, entries: undefined };
        }
      }),
    );
    const merged: CatalogEntry[] = [];
    const seen = new Set<string>();
    for (const { entries } of results) {
      for (const entry of entries ?? []) {
        if (seen.has(entry.model.id)) continue;
        seen.add(entry.model.id);
        merged.push(entry);
      }
    }
    if (startedAt === generation) {
      for (const { handle, entries } of results) if (entries) lastByHandle.set(handleKey(handle), entries);
      const next = new Map<string, CatalogEntry>();
      for (const handle of handles) {
        for (const entry of lastByHandle.get(handleKey(handle)) ?? []) if (!next.has(entry.model.id)) next.set(entry.model.id, entry);
      }
      lastSeen = next;
    }
    return merged;
  }

  function refresh(): Promise<CatalogEntry[]> {
    const startedAt = generation;
    refreshing ??= collect()
      .then((entries) => {
        if (startedAt === generation) cache = { entries, at: clock.nowMs() };
        return entries;
      })
      .finally(() => {
        if (startedAt === generation) refreshing = undefined;
      });
    return refreshing;
  }

  async function entries(): Promise<CatalogEntry[]> {
    const flags = await settings.getFlags();
    if (!flags.ENABLE_BASE_MODELS_CACHE) return collect();
    if (!cache) return refresh();
    if (clock.nowMs() - cache.at >= refreshAfterMs && !refreshing) {
      refresh().catch((error: unknown) => log.warn({ reason: (error as Error).message }, 'background model list refresh failed'));
    }
    return cache.entries;
  }

  return {
    /** Drops cached lists (a provider's models changed, e.g. a built-in model was added). */
    invalidate: forget,
    /** The merged base models (cached or asked now, per ENABLE_BASE_MODELS_CACHE). */
    async list(): Promise<BaseModel[]> {
      return (await entries()).map((e) => e.model);
    },
    /** The merged entries with their providers. */
    entries,
    /** Providers whose last model listing failed (their models are missing from the list). */
    unreachable(): UnreachableProvider[] {
      return [...unreachable.values()];
    },
    /**
     * The provider answering base model `id` (as listed, prefix included), or undefined when no
     * enabled provider offers it. Asks the providers only when the id was not seen before.
     */
    async find(id: string): Promise<CatalogEntry | undefined> {
      const known = lastSeen.get(id);
      if (known) return known;
      // Concurrent misses share one listing instead of each asking every provider.
      lookup ??= collect().finally(() => {
        lookup = undefined;
      });
      await lookup;
      return lastSeen.get(id);
    },
  };
}
export type ModelCatalog = ReturnType<typeof createModelCatalog>;
