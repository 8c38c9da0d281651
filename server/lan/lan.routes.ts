import { z } from 'zod';
import type { AuthService } from '../auth';
import { LanConfigUpdate, LanStatus, lanQrText } from '../contracts/lan';
import { badRequest, conflict } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
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
export function lanRoutes(lan: LanSharing, auth: Pick<AuthService, 'needsPassword'>): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', summary: 'LAN sharing settings and addresses', response: LanStatus }, async ({ user }) => ({
      ...(await lan.status()),
      password_required: await auth.needsPassword(user.id),
    })),
    route(
      {
        method: 'post',
        path: '/',
        guard: 'admin',
        body: LanConfigUpdate,
        invalid: 400,
        summary: 'Turn LAN sharing on or off, choose HTTPS (409 PASSWORD_REQUIRED while the caller has no password)',
        response: LanStatus,
      },
      async ({ user, body }) => {
        const passwordRequired = await auth.needsPassword(user.id);
        if (body.enabled === true && passwordRequired) throw conflict(PASSWORD_REQUIRED_DETAIL, 'PASSWORD_REQUIRED');
        return { ...(await lan.update(body)), password_required: passwordRequired };
      },
    ),
    // A QR code (SVG) of one of this machine's LAN URLs with the certificate fingerprint, for phones and colleagues.
    route({ method: 'get', path: '/qr', guard: 'admin', query: QrQuery, invalid: 400, produces: 'svg', summary: 'A QR code of a LAN address' }, async ({ res, query }) => {
      const { urls, fingerprint } = await lan.status();
      if (!urls.includes(query.url)) throw badRequest(`Field 'url' must be one of this machine's LAN URLs: ${urls.join(', ') || 'none'}`);
      res.type('image/svg+xml').send(await qrSvg(lanQrText(query.url, fingerprint)));
    }),
  ];
}
