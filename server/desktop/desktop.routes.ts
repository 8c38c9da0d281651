import { Router } from 'express';
import { z } from 'zod';
import { requireAdmin } from '../session';
import { setSessionCookie } from '../auth';
import { forbidden } from '../platform/http/errors';
import { cameThroughLan } from '../platform/http/listener-tags';
import { validateQuery } from '../platform/http/validate';
import type { FirstRunSetupService } from './first-run-setup';
import type { OwnerHandover } from './owner-handover';

const HandoverQuery = z.object({ code: z.string().min(1).max(200) });

/** GET /auths/desktop-handover?code=…: the desktop window's one-time owner sign-in (loopback only). */
export function desktopHandoverRoutes(handover: OwnerHandover, setup: FirstRunSetupService): Router {
  const router = Router();
  router.get('/desktop-handover', validateQuery(HandoverQuery, { status: 400 }), async (req, res) => {
    if (cameThroughLan(req)) throw forbidden('The desktop sign-in works only in the Parley window', 'HANDOVER_LAN');
    const { code } = res.locals.query as z.infer<typeof HandoverQuery>;
    const result = await handover.redeem(code);
    setSessionCookie(req, res, result.token, result.expiresAt);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, (await setup.needed()) ? '/setup' : '/');
  });
  return router;
}

/** GET /api/v1/desktop/setup: what the first-run setup screen offers (admins). */
export function firstRunSetupRoutes(setup: FirstRunSetupService): Router {
  const router = Router();
  router.get('/', requireAdmin, async (_req, res) => {
    res.json(await setup.state());
  });
  return router;
}
