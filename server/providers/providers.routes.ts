import { Router } from 'express';
import { requireAdmin } from '../session';
import {
  CompatSettingsUpdate,
  CompatVerifyRequest,
  ConnectionFlagsUpdate,
  LocalSettingsUpdate,
  LocalVerifyRequest,
} from '../contracts/providers';
import { validateBody } from '../platform/http/validate';
import type { ProviderSettings } from './providers.service';

/** Settings endpoints answer 400 for invalid values, like the admin config. */
const AS_400 = { status: 400 } as const;

/** Section 4.9, compatible providers. Mounted at `/compat`. */
export function compatRoutes(settings: ProviderSettings): Router {
  const router = Router();
  router.get('/config', requireAdmin, async (_req, res) => {
    res.json(await settings.getCompat());
  });
  router.post('/config/update', requireAdmin, validateBody(CompatSettingsUpdate, AS_400), async (req, res) => {
    res.json(await settings.updateCompat(req.body as CompatSettingsUpdate));
  });
  router.post('/verify', requireAdmin, validateBody(CompatVerifyRequest, AS_400), async (req, res) => {
    res.json(await settings.verifyCompat(req.body as CompatVerifyRequest));
  });
  return router;
}

/** Section 4.9, local providers. Mounted at `/local`. */
export function localRoutes(settings: ProviderSettings): Router {
  const router = Router();
  router.get('/config', requireAdmin, async (_req, res) => {
    res.json(await settings.getLocal());
  });
  router.post('/config/update', requireAdmin, validateBody(LocalSettingsUpdate, AS_400), async (req, res) => {
    res.json(await settings.updateLocal(req.body as LocalSettingsUpdate));
  });
  router.post('/verify', requireAdmin, validateBody(LocalVerifyRequest, AS_400), async (req, res) => {
    res.json(await settings.verifyLocal(req.body as LocalVerifyRequest));
  });
  return router;
}

/** Section 4.9, direct connection flags. Mounted at `/api/v1/configs/connections`. */
export function connectionsRoutes(settings: ProviderSettings): Router {
  const router = Router();
  router.get('/', requireAdmin, async (_req, res) => {
    res.json(await settings.getFlags());
  });
  router.post('/', requireAdmin, validateBody(ConnectionFlagsUpdate, AS_400), async (req, res) => {
    res.json(await settings.updateFlags(req.body as ConnectionFlagsUpdate));
  });
  return router;
}
