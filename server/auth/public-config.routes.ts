import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { packageRoot } from '../platform/paths';
import type { PublicConfig } from '../contracts/public-config';
import type { AuthService } from './auth.service';

/** Reads what the public config needs; the user count tells whether this is a first run. */
export interface PublicConfigDeps {
  auth: Pick<AuthService, 'getConfig'>;
  countUsers(): Promise<number>;
}

let cachedVersion: string | undefined;
/** The version in package.json, read once. */
export function appVersion(): string {
  if (cachedVersion === undefined) {
    try {
      cachedVersion = String((JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }).version ?? '0.0.0');
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return cachedVersion;
}

/** `GET /api/config`, without authentication: onboarding state and the sign-up switch for the first screen. */
export function publicConfigRoutes(deps: PublicConfigDeps): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const [config, users] = await Promise.all([deps.auth.getConfig(), deps.countUsers()]);
    const body: PublicConfig = {
      name: 'Parley',
      version: appVersion(),
      onboarding: users === 0,
      features: { enable_signup: config.ENABLE_SIGNUP || users === 0, enable_api_key: config.ENABLE_API_KEY, enable_message_rating: config.ENABLE_MESSAGE_RATING },
    };
    res.json(body);
  });
  return router;
}
