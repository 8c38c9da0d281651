import { describe, expect, it } from 'vitest';
import { memorySecretStore } from '../secrets';
import { maskKey, createWebSettings, webKeySecret } from './web-settings';
import type { ConfigService } from '../config';

/** A config service holding sections in memory. */
function memoryConfig(): ConfigService {
  const values = new Map<string, unknown>();
  return {
    get: async (section: { key: string; defaults: unknown }) => values.get(section.key) ?? section.defaults,
    set: async (section: { key: string }, value: unknown) => {
      values.set(section.key, value);
      return value;
    },
  } as unknown as ConfigService;
}

describe('web search settings', () => {
  it('masks keys: the last four characters of a long key, dots only for a short one', () => {
    expect(maskKey('')).toBe('');
    expect(maskKey('short-key')).toBe('••••••••');
    expect(maskKey('tvly-0123456789abcdef')).toBe('••••••••cdef');
  });

  it('keeps keys in the secret store only, keeps a key sent back masked, removes one sent empty', async () => {
    const secrets = memorySecretStore();
    const config = memoryConfig();
    const settings = createWebSettings({ config, secrets });
    const view = await settings.update({ TAVILY_API_KEY: 'tvly-0123456789abcdef', ENABLE_WEB_SEARCH: true });
    expect(view.TAVILY_API_KEY).toBe('••••••••cdef');
    expect(view.ENABLE_WEB_SEARCH).toBe(true);
    expect(JSON.stringify(await settings.get())).not.toContain('tvly-');
    expect(await secrets.get(webKeySecret('TAVILY_API_KEY'))).toBe('tvly-0123456789abcdef');
    await settings.update({ TAVILY_API_KEY: '••••••••cdef' });
    expect(await settings.key('TAVILY_API_KEY')).toBe('tvly-0123456789abcdef');
    await settings.update({ TAVILY_API_KEY: 'tvly-new-key-9999999999' });
    expect(await settings.key('TAVILY_API_KEY')).toBe('tvly-new-key-9999999999');
    await settings.update({ TAVILY_API_KEY: '' });
    expect(await settings.key('TAVILY_API_KEY')).toBe('');
  });
});
