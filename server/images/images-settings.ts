import { defineSection, type ConfigService } from '../config';
import { ImagesConfig } from '../contracts/images';
import type { SecretStore } from '../secrets';

/** The keys kept in the secret store, by config field. */
const SECRET_FIELDS = {
  IMAGES_OPENAI_API_KEY: 'images:openai-key',
  COMFYUI_API_KEY: 'images:comfyui-key',
  AUTOMATIC1111_API_AUTH: 'images:automatic1111-auth',
} as const;
type SecretField = keyof typeof SECRET_FIELDS;
const FIELDS = Object.keys(SECRET_FIELDS) as SecretField[];

/** The settings a fresh installation starts with: off, OpenAI's images API, 512×512. */
export const DEFAULT_IMAGES_CONFIG: ImagesConfig = ImagesConfig.parse({ ENABLE_IMAGE_GENERATION: false, IMAGE_GENERATION_ENGINE: 'openai' });

/** The image settings section; key fields are always stored empty (the keys are in the secret store). */
export const ImagesSection = defineSection<ImagesConfig>('images', ImagesConfig, DEFAULT_IMAGES_CONFIG);

/** How a stored key is shown: its last four characters behind dots, so an admin can tell which key it is. */
export function maskSecret(value: string): string {
  if (!value) return '';
  return value.length >= 12 ? `••••••••${value.slice(-4)}` : '••••••••';
}

/**
 * The image settings with their keys: `view()` shows keys masked, `resolved()` (for the engines)
 * holds them in clear, `update()` keeps a key that comes back masked, deletes one sent empty.
 */
export function createImagesSettings(deps: { config: Pick<ConfigService, 'get' | 'set'>; secrets: SecretStore }) {
  const keys = async () => Object.fromEntries(await Promise.all(FIELDS.map(async (field) => [field, (await deps.secrets.get(SECRET_FIELDS[field])) ?? '']))) as Record<SecretField, string>;
  return {
    /** The settings with keys in clear (never sent to a client). */
    async resolved(): Promise<ImagesConfig> {
      return { ...(await deps.config.get(ImagesSection)), ...(await keys()) };
    },
    /** The settings as admins read them: keys masked. */
    async view(): Promise<ImagesConfig> {
      const current = await keys();
      return { ...(await deps.config.get(ImagesSection)), ...Object.fromEntries(FIELDS.map((field) => [field, maskSecret(current[field])])) };
    },
    /** Replaces the settings; answers the masked view. */
    async update(next: ImagesConfig): Promise<ImagesConfig> {
      const current = await keys();
      for (const field of FIELDS) {
        const sent = next[field];
        if (sent === maskSecret(current[field])) continue;
        if (sent === '') await deps.secrets.delete(SECRET_FIELDS[field]);
        else await deps.secrets.set(SECRET_FIELDS[field], sent);
      }
      await deps.config.set(ImagesSection, { ...next, ...Object.fromEntries(FIELDS.map((field) => [field, ''])) });
      return this.view();
    },
  };
}
export type ImagesSettings = ReturnType<typeof createImagesSettings>;
