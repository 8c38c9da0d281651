import { Router } from 'express';
import { z } from 'zod';
import type { AuthService } from '../auth';
import { authOf, requireAdmin } from '../session';
import { LanConfigUpdate, lanQrText } from '../contracts/lan';
import { badRequest, conflict } from '../platform/http/errors';
import { validateBody, validateQuery } from '../platform/http/validate';
import { qrSvg } from './lan-qr';
import type { LanSharing } from './lan.service';

const QrQuery = z.object({ url: z.string().min(1) });

/** What the caller is told when sharing needs their password first. */
export const PASSWORD_REQUIRED_DETAIL =
  'Set a password for your account before turning on LAN sharing: other devices sign in with it. ' +
  "Set it in Account settings (or POST /api/v1/auths/update/password with an empty 'password' and your 'new_password'), then turn sharing on.";

/**
 * Admin-only "Share on local network" setting. Mounted at `/api/v1/configs/lan`. An admin
 * without a password (the desktop owner, signed in by the desktop handover) sets one first:
 * turning sharing on answers 409 PASSWORD_REQUIRED until then.
 */
export function lanRoutes(lan: LanSharing, auth: Pick<AuthService, 'needsPassword'>): Router {
  const router = Router();

  router.get('/', requireAdmin, async (req, res) => {
    res.json({ ...(await lan.status()), password_required: await auth.needsPassword(authOf(req).user.id) });
  });

  router.post('/', requireAdmin, validateBody(LanConfigUpdate, { status: 400 }), async (req, res) => {
    const patch = req.body as LanConfigUpdate;
    const passwordRequired = await auth.needsPassword(authOf(req).user.id);
    if (patch.enabled === true && passwordRequired) throw conflict(PASSWORD_REQUIRED_DETAIL, 'PASSWORD_REQUIRED');
    res.json({ ...(await lan.update(patch)), password_required: passwordRequired });
  });

  /** A QR code (SVG) of one of this machine's LAN URLs with the certificate fingerprint, for phones and colleagues. */
  router.get('/qr', requireAdmin, validateQuery(QrQuery, { status: 400 }), async (_req, res) => {
    const { url } = res.locals.query as z.infer<typeof QrQuery>;
    const { urls, fingerprint } = await lan.status();
    if (!urls.includes(url)) throw badRequest(`Field 'url' must be one of this machine's LAN URLs: ${urls.join(', ') || 'none'}`);
    res.type('image/svg+xml').send(await qrSvg(lanQrText(url, fingerprint)));
  });

  return router;
}
