import type { RequestHandler } from 'express';
import { noteAuthFailure } from '../session';
import type { AuthService } from './auth.service';
import { readCredential } from './credentials';

/** Reads the request's credential, if any, into `req.auth`. Never refuses by itself. */
export function authenticate(auth: AuthService): RequestHandler {
  return async (req, _res, next) => {
    const credential = readCredential(req);
    if (!credential) return next();
    const result = await auth.authenticate(credential);
    if (typeof result === 'string') noteAuthFailure(req, result);
    else req.auth = result;
    next();
  };
}
