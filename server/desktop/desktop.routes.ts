import { z } from 'zod';
import { setSessionCookie } from '../auth';
import { FirstRunSetup } from '../contracts/desktop';
import { forbidden } from '../platform/http/errors';
import { cameThroughLan } from '../platform/http/listener-tags';
import { route, type Routes } from '../platform/http/route';
import type { FirstRunSetupService } from './first-run-setup';
import type { OwnerHandover } from './owner-handover';

const HandoverQuery = z.object({ code: z.string().min(1).max(200) });

/** GET /auths/desktop-handover?code=…: the desktop window's one-time owner sign-in (loopback only). */
export function desktopHandoverRoutes(handover: OwnerHandover, setup: FirstRunSetupService): Routes {
  return [
    route(
      {
        method: 'get',
        path: '/desktop-handover',
        guard: 'public',
        query: HandoverQuery,
        invalid: 400,
        produces: 'redirect',
        summary: 'One-time sign-in of the desktop window as its owner (loopback only); redirects to the app or the setup screen',
      },
      async ({ req, res, query }) => {
        if (cameThroughLan(req)) throw forbidden('The desktop sign-in works only in the Parley window', 'HANDOVER_LAN');
        const result = await handover.redeem(query.code);
        setSessionCookie(req, res, result.token, result.expiresAt);
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, (await setup.needed()) ? '/setup' : '/');
      },
    ),
  ];
}

/** GET /api/v1/desktop/setup: what the first-run setup screen offers (admins). */
export function firstRunSetupRoutes(setup: FirstRunSetupService): Routes {
  return [
    route(
      { method: 'get', path: '/', guard: 'admin', summary: 'What the first-run setup screen offers: connected providers, a local Ollama, the secret store in use (admin)', response: FirstRunSetup },
      () => setup.state(),
    ),
  ];
}
