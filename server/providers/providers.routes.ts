import {
  CompatSettings,
  CompatSettingsUpdate,
  CompatVerifyRequest,
  ConnectionFlags,
  ConnectionFlagsUpdate,
  LocalSettings,
  LocalSettingsUpdate,
  LocalVerifyRequest,
  VerifyResponse,
} from '../contracts/providers';
import { route, type Routes } from '../platform/http/route';
import type { ProviderSettings } from './providers.service';

/** Section 4.9, compatible providers. Mounted at `/compat`. Settings answer 400 for invalid values, like the admin config. */
export function compatRoutes(settings: ProviderSettings): Routes {
  return [
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'OpenAI-compatible provider connections', response: CompatSettings }, () => settings.getCompat()),
    route({ method: 'post', path: '/config/update', guard: 'admin', body: CompatSettingsUpdate, invalid: 400, summary: 'Replace the OpenAI-compatible provider connections', response: CompatSettings }, ({ body }) =>
      settings.updateCompat(body),
    ),
    route({ method: 'post', path: '/verify', guard: 'admin', body: CompatVerifyRequest, invalid: 400, summary: 'Check an OpenAI-compatible connection', response: VerifyResponse }, ({ body }) =>
      settings.verifyCompat(body),
    ),
  ];
}

/** Section 4.9, local providers. Mounted at `/local`. */
export function localRoutes(settings: ProviderSettings): Routes {
  return [
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'Local (Ollama-style) provider connections', response: LocalSettings }, () => settings.getLocal()),
    route({ method: 'post', path: '/config/update', guard: 'admin', body: LocalSettingsUpdate, invalid: 400, summary: 'Replace the local provider connections', response: LocalSettings }, ({ body }) =>
      settings.updateLocal(body),
    ),
    route({ method: 'post', path: '/verify', guard: 'admin', body: LocalVerifyRequest, invalid: 400, summary: 'Check a local provider connection', response: VerifyResponse }, ({ body }) =>
      settings.verifyLocal(body),
    ),
  ];
}

/** Section 4.9, direct connection flags. Mounted at `/api/v1/configs/connections`. */
export function connectionsRoutes(settings: ProviderSettings): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', summary: 'Direct connection flags', response: ConnectionFlags }, () => settings.getFlags()),
    route({ method: 'post', path: '/', guard: 'admin', body: ConnectionFlagsUpdate, invalid: 400, summary: 'Update the direct connection flags', response: ConnectionFlags }, ({ body }) => settings.updateFlags(body)),
  ];
}
