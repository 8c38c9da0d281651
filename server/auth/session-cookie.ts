import type { Request, Response } from 'express';

const COOKIE = 'token';

/** Sets the HttpOnly session cookie that browser clients use. */
export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: number | null): void {
  res.cookie(COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    ...(expiresAt === null ? { maxAge: 10 * 365 * 86_400_000 } : { expires: new Date(expiresAt * 1000) }),
  });
}

/** Clears the session cookie. */
export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
}
