import type { FirstRunSetup } from '../contracts/desktop';
import type { Providers } from '../providers';
import { outboundFetch } from '../platform/net/outbound';

export type { FirstRunSetup };

/** How long the Ollama probe may take before the screen shows "not found". */
const PROBE_TIMEOUT_MS = 1_500;

/** Asks `url` for its model list the way Ollama answers it; found when it does. */
export async function probeOllama(url: string, fetchImpl: typeof fetch = outboundFetch('provider')): Promise<{ found: boolean; models: number }> {
  try {
    const res = await fetchImpl(`${url.replace(/\/+$/, '')}/api/tags`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!res.ok) return { found: false, models: 0 };
    const body = (await res.json()) as { models?: unknown };
    return Array.isArray(body.models) ? { found: true, models: body.models.length } : { found: false, models: 0 };
  } catch {
    return { found: false, models: 0 };
  }
}

/** The first-run setup state: whether a provider is configured, and whether Ollama is there. */
export function createFirstRunSetup(deps: { providers: Pick<Providers, 'settings'>; ollamaUrl: string; secretStore: FirstRunSetup['secret_store'] }) {
  return {
    async state(): Promise<FirstRunSetup> {
      const [entries, ollama] = await Promise.all([deps.providers.settings.entries(), probeOllama(deps.ollamaUrl)]);
      return { needed: entries.length === 0, ollama: { url: deps.ollamaUrl.replace(/\/+$/, ''), ...ollama }, secret_store: deps.secretStore };
    },
    /** Without the Ollama probe, for the handover's redirect. */
    async needed(): Promise<boolean> {
      return (await deps.providers.settings.entries()).length === 0;
    },
  };
}
export type FirstRunSetupService = ReturnType<typeof createFirstRunSetup>;
