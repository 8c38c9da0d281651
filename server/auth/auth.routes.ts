import { Router } from 'express';
import { AddUserRequest, AuthConfigUpdate, SigninRequest, SignupRequest, UpdatePasswordRequest, UpdateProfileRequest } from '../contracts/auth';
import { cameThroughLan } from '../platform/http/listener-tags';
import { validateBody } from '../platform/http/validate';
import type { AuthService } from './auth.service';
import { authOf, requireAdmin, requireSession, requireUser } from '../session';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

/** Section 4.1: accounts, sessions, API keys and the auth admin settings. Mounted at `/auths` and `/api/v1/auths`. */
export function authRoutes(auth: AuthService): Router {
  const router = Router();

  router.post('/signup', validateBody(SignupRequest, { status: 400 }), async (req, res) => {
    const result = await auth.signup(req.body as SignupRequest, req.ip ?? 'unknown');
    setSessionCookie(req, res, result.token, result.expiresAt);
    res.json(result.body);
  });

  router.post('/signin', validateBody(SigninRequest, { status: 400 }), async (req, res) => {
    const body = req.body as SigninRequest;
    const result = await auth.signin(body.email, body.password, req.ip ?? 'unknown', req.headers, { address: req.socket.remoteAddress, lan: cameThroughLan(req) });
    setSessionCookie(req, res, result.token, result.expiresAt);
    res.json(result.body);
  });

  router.get('/', requireSession, async (req, res) => {
    const result = await auth.refresh(authOf(req));
    if (req.auth?.via === 'jwt') setSessionCookie(req, res, result.token, result.expiresAt);
    res.json(result.body);
  });

  router.get('/signout', requireSession, async (req, res) => {
    await auth.signout(authOf(req));
    clearSessionCookie(req, res);
    res.json({ status: true });
  });

  router.post('/add', requireAdmin, validateBody(AddUserRequest, { status: 400 }), async (req, res) => {
    res.json(await auth.addUser(req.body as AddUserRequest));
  });

  router.post('/api_key', requireUser, async (req, res) => {
    res.json({ api_key: await auth.createApiKey(authOf(req).user.id) });
  });
  router.get('/api_key', requireUser, async (req, res) => {
    res.json({ api_key: await auth.getApiKey(authOf(req).user.id) });
  });
  router.delete('/api_key', requireUser, async (req, res) => {
    await auth.deleteApiKey(authOf(req).user.id);
    res.json(true);
  });

  router.post('/update/profile', requireUser, validateBody(UpdateProfileRequest), async (req, res) => {
    res.json(await auth.updateProfile(authOf(req).user, req.body as UpdateProfileRequest));
  });
  router.post('/update/password', requireUser, validateBody(UpdatePasswordRequest, { status: 400 }), async (req, res) => {
    await auth.updatePassword(authOf(req), req.body as UpdatePasswordRequest, req.ip ?? 'unknown');
    res.json(true);
  });

  /** Admins see whether a user has an API key (never the key) and can revoke it. */
  router.get('/admin/users/:user_id/api_key', requireAdmin, async (req, res) => {
    res.json(await auth.apiKeyInfo(String(req.params.user_id)));
  });
  router.delete('/admin/users/:user_id/api_key', requireAdmin, async (req, res) => {
    await auth.revokeApiKeyOf(String(req.params.user_id));
    res.json(true);
  });

  router.get('/admin/config', requireAdmin, async (_req, res) => {
    res.json(await auth.getConfig());
  });
  router.post('/admin/config', requireAdmin, validateBody(AuthConfigUpdate, { status: 400 }), async (req, res) => {
    res.json(await auth.updateConfig(req.body as AuthConfigUpdate));
  });

  return router;
}
