import type { AuthContext } from './auth-context';
import type { RequestHandler } from 'express';
import type { AuthFailure } from './auth-context';
import { authFailureError, type AuthService } from './auth.service';
import { readCredential } from './credentials';
import { forbidden } from '../platform/http/errors';

const failures = new WeakMap<object, AuthFailure>();

/** Reads the request's credential, if any, into `req.auth`. Never refuses by itself. */
export function authenticate(auth: AuthService): RequestHandler {
  return async (req, _res, next) => {
    const credential = readCredential(req);
    if (!credential) return next();
    const result = await auth.authenticate(credential);
    if (typeof result === 'string') failures.set(req, result);
    else req.auth = result;
    next();
  };
}

/** Any signed-in account, pending ones included (their own session and sign-out only). */
export const requireSession: RequestHandler = (req, _res, next) => {
  if (!req.auth) throw authFailureError(failures.get(req));
  next();
};

/** A verified account: role `user` or `admin`. Pending accounts get 403. */
export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.auth) throw authFailureError(failures.get(req));
  if (req.auth.user.role === 'pending') {
    throw forbidden('Your account is waiting for an administrator to approve it', 'ACCOUNT_PENDING');
  }
  next();
};

/** Admins only. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.auth) throw authFailureError(failures.get(req));
  if (req.auth.user.role !== 'admin') throw forbidden('Only administrators may do this', 'ADMIN_REQUIRED');
  next();
};

/** The authenticated context of a request that passed a guard. */
export function authOf(req: { auth?: AuthContext }): AuthContext {
  if (!req.auth) throw authFailureError(undefined);
  return req.auth;
}
