import type { RequestHandler } from 'express';
import { forbidden, type HttpError, unauthorized } from '../platform/http/errors';
import type { AuthFailure } from './auth-context';

/** Why a request's credential was refused, kept until a guard answers for it. */
const failures = new WeakMap<object, AuthFailure>();

/** Remembers why the request's credential failed, so a guard can say so (the authenticating middleware calls it). */
export function noteAuthFailure(req: object, failure: AuthFailure): void {
  failures.set(req, failure);
}

/** 401 for a request whose credentials failed, with a message saying why. */
export function authFailureError(failure: AuthFailure | undefined): HttpError {
  if (failure === 'expired') return unauthorized('Your session has expired; sign in again', 'TOKEN_EXPIRED');
  if (failure === 'api_key_disabled') return forbidden('API keys are disabled by the administrator', 'API_KEYS_DISABLED');
  if (failure === 'invalid') return unauthorized('Invalid token or API key', 'INVALID_TOKEN');
  return unauthorized('Not authenticated', 'NOT_AUTHENTICATED');
}

/** The refusal for a request without a session (its credential's failure, or none given). */
function missingSessionError(req: object): HttpError {
  return authFailureError(failures.get(req));
}

/** Any signed-in account, pending ones included (their own session and sign-out only). */
export const requireSession: RequestHandler = (req, _res, next) => {
  if (!req.auth) throw missingSessionError(req);
  next();
};

/** A verified account: role `user` or `admin`. Pending accounts get 403. */
export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.auth) throw missingSessionError(req);
  if (req.auth.user.role === 'pending') {
    throw forbidden('Your account is waiting for an administrator to approve it', 'ACCOUNT_PENDING');
  }
  next();
};

/** Admins only. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.auth) throw missingSessionError(req);
  if (req.auth.user.role !== 'admin') throw forbidden('Only administrators may do this', 'ADMIN_REQUIRED');
  next();
};

/** The guard of each access level, for the route helper (platform/http/route.ts). */
export const sessionGuards = { session: requireSession, user: requireUser, admin: requireAdmin } as const;
