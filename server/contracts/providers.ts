import { z } from 'zod';

/** The provider kinds: `compat` speaks the OpenAI wire format, `local` the Ollama one, `builtin` runs GGUF files with the bundled llama.cpp (server/builtin). */
export const ProviderKind = z.enum(['compat', 'local', 'builtin']);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** A provider base URL: http(s), stored without a trailing slash. */
export const ProviderUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL')
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * Per-entry settings of one provider URL (a value of COMPAT_API_CONFIGS / LOCAL_API_CONFIGS,
 * keyed by the URL's index as a string). Unknown keys are kept as given.
 */
export const ProviderEntryConfig = z.looseObject({
  /** Off: the provider's models are neither listed nor usable. Default on. */
  enable: z.boolean().optional(),
  /** A name people know the connection by ("Office GPU"), shown over its models in model lists. */
  name: z.string().trim().max(100).optional(),
  /** Prepended to every model id of this provider as `<prefix_id>.<model id>`, to tell providers apart. */
  prefix_id: z.string().trim().max(100).optional(),
  /** Allow-list: when not empty, only these provider model ids are offered. */
  model_ids: z.array(z.string().max(512)).max(10_000).optional(),
  /** Tags shown on every model of this provider. */
  tags: z.array(z.unknown()).max(100).optional(),
  /** Local providers only: a bearer key (kept in the secret store, never in the database). */
  key: z.string().max(4096).optional(),
});
export type ProviderEntryConfig = z.infer<typeof ProviderEntryConfig>;

const EntryConfigs = z.record(z.string().regex(/^\d+$/, 'keys must be URL indexes such as "0"'), ProviderEntryConfig);

/** Compatible-API provider settings, as GET /compat/config answers. */
export const CompatSettings = z.object({
  COMPAT_API_BASE_URLS: z.array(ProviderUrl).max(100),
  /** One key per URL, same order; empty string for none. Stored in the secret store. */
  COMPAT_API_KEYS: z.array(z.string().max(4096)).max(100),
  COMPAT_API_CONFIGS: EntryConfigs,
});
export type CompatSettings = z.infer<typeof CompatSettings>;

/** POST /compat/config/update: any subset; keys and configs follow the URLs by index. */
export const CompatSettingsUpdate = CompatSettings.partial();
export type CompatSettingsUpdate = z.infer<typeof CompatSettingsUpdate>;

/** Local provider settings, as GET /local/config answers. */
export const LocalSettings = z.object({
  LOCAL_BASE_URLS: z.array(ProviderUrl).max(100),
  LOCAL_API_CONFIGS: EntryConfigs,
});
export type LocalSettings = z.infer<typeof LocalSettings>;

/** POST /local/config/update: any subset. */
export const LocalSettingsUpdate = LocalSettings.partial();
export type LocalSettingsUpdate = z.infer<typeof LocalSettingsUpdate>;

/** POST /compat/verify. */
export const CompatVerifyRequest = z.object({
  url: ProviderUrl,
  key: z.string().max(4096).optional().default(''),
  config: z.record(z.string(), z.unknown()).optional(),
});
export type CompatVerifyRequest = z.infer<typeof CompatVerifyRequest>;

/** POST /local/verify. */
export const LocalVerifyRequest = z.object({
  url: ProviderUrl,
  key: z.string().max(4096).optional().default(''),
});
export type LocalVerifyRequest = z.infer<typeof LocalVerifyRequest>;

/** Answer of both verify endpoints: whether the provider answered its model list with that key. */
export const VerifyResponse = z.object({
  status: z.boolean(),
  /** How many models the provider listed (when it answered). */
  model_count: z.number().int().optional(),
  /** Why verification failed, for the admin: unreachable and why, too slow, key refused, wrong URL. */
  detail: z.string().optional(),
});
export type VerifyResponse = z.infer<typeof VerifyResponse>;

/** Direct connection flags (GET/POST /api/v1/configs/connections). */
export const ConnectionFlags = z.object({
  /** Stored for clients that connect to their own providers directly; the service itself does not use it. */
  ENABLE_DIRECT_CONNECTIONS: z.boolean(),
  /** On: GET /api/models answers from a cache refreshed in the background. */
  ENABLE_BASE_MODELS_CACHE: z.boolean(),
});
export type ConnectionFlags = z.infer<typeof ConnectionFlags>;

/** POST /api/v1/configs/connections: any subset. */
export const ConnectionFlagsUpdate = ConnectionFlags.partial();
export type ConnectionFlagsUpdate = z.infer<typeof ConnectionFlagsUpdate>;

/** Defaults of a fresh install: no cache, no direct connections. */
export const DEFAULT_CONNECTION_FLAGS: ConnectionFlags = {
  ENABLE_DIRECT_CONNECTIONS: false,
  ENABLE_BASE_MODELS_CACHE: false,
};
