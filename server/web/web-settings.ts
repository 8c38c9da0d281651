import { defineSection, type ConfigService } from '../config';
import { DEFAULT_WEB_CONFIG, WEB_SEARCH_KEYS, WebConfig, type WebConfigUpdate, type WebConfigView, type WebSearchKey } from '../contracts/web';
import type { SecretStore } from '../secrets';

/** Web search settings without keys (keys live in the secret store). */
export const WebSection = defineSection<WebConfig>('retrieval.web', WebConfig, DEFAULT_WEB_CONFIG);

/** Secret store name of an engine key. */
export const webKeySecret = (key: WebSearchKey) => `web:${key}`;

/**
 * How a key is shown: its last four characters behind dots when it is long enough for that to
 * reveal little, else dots only; '' when none is set.
 */
export function maskKey(value: string): string {
  if (!value) return '';
  return value.length >= 16 ? `••••••••${value.slice(-4)}` : '••••••••';
}

/** Reads and writes the web search settings, keys included (masked when shown). */
export function createWebSettings(deps: { config: ConfigService; secrets: SecretStore }) {
  const { config, secrets } = deps;
  const key = async (name: WebSearchKey) => (await secrets.get(webKeySecret(name))) ?? '';
  const settings = {
    /** The settings in force. */
    get: (): Promise<WebConfig> => config.get(WebSection),
    /** One engine key in clear ('' when none): for the engine call only, never for an answer or a log. */
    key,
    /** The settings with every key masked, as admins see them. */
    async view(): Promise<WebConfigView> {
      const keys = await Promise.all(WEB_SEARCH_KEYS.map(async (name) => [name, maskKey(await key(name))] as const));
      return { ...(await config.get(WebSection)), ...Object.fromEntries(keys) } as WebConfigView;
    },
    /** Applies a validated subset: '' removes a key, a key sent back as it was shown (masked) is kept. */
    async update(patch: WebConfigUpdate): Promise<WebConfigView> {
      const plain: Partial<WebConfig> = {};
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined || (WEB_SEARCH_KEYS as readonly string[]).includes(field)) continue;
        (plain as Record<string, unknown>)[field] = value;
      }
      for (const name of WEB_SEARCH_KEYS) {
        const value = patch[name];
        if (value === undefined) continue;
        const trimmed = value.trim();
        if (trimmed === '') await secrets.delete(webKeySecret(name));
        else if (trimmed !== maskKey(await key(name))) await secrets.set(webKeySecret(name), trimmed);
      }
      if (Object.keys(plain).length > 0) await config.set(WebSection, { ...(await config.get(WebSection)), ...plain });
      return settings.view();
    },
  };
  return settings;
}
export type WebSettings = ReturnType<typeof createWebSettings>;
