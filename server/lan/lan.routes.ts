import { Router } from 'express';
import { z } from 'zod';
import { requireAdmin } from '../auth';
import { LanConfigUpdate, lanQrText } from '../contracts/lan';
import { badRequest } from '../platform/http/errors';
import { validateBody, validateQuery } from '../platform/http/validate';
import { qrSvg } from './lan-qr';
import type { LanSharing } from './lan.service';

const QrQuery = z.object({ url: z.string().min(1) });

/** Admin-only "Share on local network" setting. Mounted at `/api/v1/configs/lan`. */
export function lanRoutes(lan: LanSharing): Router {
  const router = Router();

  router.get('/', requireAdmin, async (_req, res) => {
    res.json(await lan.status());
  });

  router.post('/', requireAdmin, validateBody(LanConfigUpdate, { status: 400 }), async (req, res) => {
    res.json(await lan.update(req.body as LanConfigUpdate));
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
