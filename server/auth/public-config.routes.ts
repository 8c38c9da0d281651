import { PublicConfig } from '../contracts/public-config';
import { appVersion } from '../platform/app-version';
import { route, type Routes } from '../platform/http/route';
import type { AuthService } from './auth.service';

/** Reads what the public config needs; the user count tells whether this is a first run. */
export interface PublicConfigDeps {
  auth: Pick<AuthService, 'getConfig'>;
  countUsers(): Promise<number>;
  /** Feature switches told to signed-in callers only (as Open WebUI does), each domain adding its own. */
  signedInFeatures?: Array<() => Promise<Partial<PublicConfig['features']>>>;
}

/** `GET /api/config`, without authentication: onboarding state and the sign-up switch for the first screen. */
export function publicConfigRoutes(deps: PublicConfigDeps): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'public', summary: 'Public configuration for the sign-in page (name, sign-up open, features)', response: PublicConfig }, async ({ user }) => {
      const [config, users] = await Promise.all([deps.auth.getConfig(), deps.countUsers()]);
      const signedIn = user !== undefined && user.role !== 'pending';
      const more = signedIn ? await Promise.all((deps.signedInFeatures ?? []).map((read) => read())) : [];
      return {
        name: 'Parley',
        version: appVersion(),
        onboarding: users === 0,
        features: Object.assign({ enable_signup: config.ENABLE_SIGNUP || users === 0, enable_api_key: config.ENABLE_API_KEY, enable_message_rating: config.ENABLE_MESSAGE_RATING, enable_notes: config.ENABLE_NOTES, enable_channels: config.ENABLE_CHANNELS }, ...more),
      };
    }),
  ];
}
