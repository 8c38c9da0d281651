import type { z } from 'zod';
import type { Clock } from '../platform/clock';
import { createTableCache } from '../platform/db/table-cache';
import type { ConfigRepo } from './config.repo';

/** A named settings section: its schema and its defaults. */
export interface ConfigSection<T> {
  key: string;
  schema: z.ZodType<T>;
  defaults: T;
}

/** Declares a settings section. */
export function defineSection<T>(key: string, schema: z.ZodType<T>, defaults: T): ConfigSection<T> {
  return { key, schema, defaults };
}

/**
 * Admin settings stored in the database, read through one cache. A stored section is merged
 * over its defaults, so fields added later get their default; a stored value that no longer
 * passes the schema falls back to the defaults rather than breaking start-up.
 */
export function createConfigService(repo: ConfigRepo, clock: Clock) {
  let cache: Map<string, string> | undefined;
  const parsed = new Map<string, unknown>();
  let writes: Promise<unknown> = Promise.resolve();
  // Dropped by every write seen (this instance's or, on PostgreSQL, another's).
  const kept = createTableCache(() => {
    cache = undefined;
    parsed.clear();
  }, repo.watch);

  async function load(): Promise<Map<string, string>> {
    if (cache) return cache;
    return kept.read(
      () => repo.all(),
      (rows) => {
        cache = rows;
      },
    );
  }

  return {
    /** Loads every stored section once; call at start. */
    async warm(): Promise<void> {
      await load();
    },

    /** The current value of a section. */
    async get<T>(section: ConfigSection<T>): Promise<T> {
      if (parsed.has(section.key)) return parsed.get(section.key) as T;
      const raw = (await load()).get(section.key);
      let value = section.defaults;
      if (raw !== undefined) {
        try {
          const stored = JSON.parse(raw) as unknown;
          const merged = isPlainObject(section.defaults) && isPlainObject(stored) ? { ...section.defaults, ...stored } : stored;
          const result = section.schema.safeParse(merged);
          if (result.success) value = result.data;
        } catch {
          // unreadable JSON: keep the defaults
        }
      }
      // Only what the kept copy says is kept parsed.
      if (cache !== undefined && cache.get(section.key) === raw) parsed.set(section.key, value);
      return value;
    },

    /** Replaces a section's value (already validated by the caller). Writes are serialised. */
    async set<T>(section: ConfigSection<T>, value: T): Promise<T> {
      const text = JSON.stringify(value);
      const run = writes.then(async () => {
        await repo.put(section.key, text, clock.now());
        if (cache) {
          cache.set(section.key, text);
          parsed.set(section.key, value);
        }
      });
      writes = run.catch(() => undefined);
      await run;
      return value;
    },

    /** Merges `patch` over the current value of an object section. */
    async update<T extends object>(section: ConfigSection<T>, patch: Partial<T>): Promise<T> {
      const next = { ...(await this.get(section)), ...patch };
      return this.set(section, next);
    },
  };
}
export type ConfigService = ReturnType<typeof createConfigService>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
