import type { ConfigService } from '../config';
import type { PermissionsService } from '../permissions';
import type { Logger } from '../platform/log';
import type { SecretStore } from '../secrets';
import type { WebSearchEngine } from '../contracts/web';
import { OPEN_GATE, type OutboundGate } from './fetch/guarded-agent';
import type { Resolve } from './fetch/resolver';
import { createWebService } from './web.service';
import { createWebSettings } from './web-settings';

/** Options tests use: a resolver, engine fakes, a shorter page time limit. */
export interface WebTestOptions {
  resolve?: Resolve;
  endpoints?: Partial<Record<WebSearchEngine, string>>;
  pageTimeoutMs?: number;
}

/** The web search domain: settings (keys in the secret store) and the service. */
export function createWeb(deps: { config: ConfigService; secrets: SecretStore; permissions: Pick<PermissionsService, 'allows'>; log: Logger; gate?: OutboundGate; test?: WebTestOptions }) {
  const settings = createWebSettings({ config: deps.config, secrets: deps.secrets });
  const service = createWebService({ settings, permissions: deps.permissions, gate: deps.gate ?? OPEN_GATE, log: deps.log, ...deps.test });
  return { settings, service };
}
export type Web = ReturnType<typeof createWeb>;
