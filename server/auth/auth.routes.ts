import { z } from 'zod';
import {
  AddUserRequest,
  AddUserResponse,
  ApiKeyInfo,
  ApiKeyResponse,
  AuthConfig,
  AuthConfigUpdate,
  SessionResponse,
  SigninRequest,
  SignoutResponse,
  SignupRequest,
  UpdatePasswordRequest,
  UpdateProfileRequest,
} from '../contracts/auth';
import { UpdatedProfile } from '../contracts/users';
import { refuseSubresourceLoad } from '../platform/http/fetch-metadata';
import { cameThroughLan } from '../platform/http/listener-tags';
import { route, type Routes } from '../platform/http/route';
import type { AuthService } from './auth.service';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

/** Section 4.1: accounts, sessions, API keys and the auth admin settings. Mounted at `/auths` and `/api/v1/auths`. */
export function authRoutes(auth: AuthService): Routes {
  return [
    route(
      { method: 'post', path: '/signup', guard: 'public', body: SignupRequest, invalid: 400, summary: 'Create an account (the first one becomes the primary admin)', response: SessionResponse },
      async ({ req, res, body }) => {
        const result = await auth.signup(body, req.ip ?? 'unknown');
        setSessionCookie(req, res, result.token, result.expiresAt);
        return result.body;
      },
    ),
    route(
      { method: 'post', path: '/signin', guard: 'public', body: SigninRequest, invalid: 400, summary: 'Sign in with email and password; returns a session token', response: SessionResponse },
      async ({ req, res, body }) => {
        const result = await auth.signin(body.email, body.password, req.ip ?? 'unknown', req.headers, { address: req.socket.remoteAddress, lan: cameThroughLan(req) });
        setSessionCookie(req, res, result.token, result.expiresAt);
        return result.body;
      },
    ),
    route({ method: 'get', path: '/', guard: 'session', summary: 'The current session with effective permissions (the presented token; none is minted)', response: SessionResponse }, async ({ req, res, auth: session }) => {
      const result = await auth.current(session);
      if (session.via === 'jwt') setSessionCookie(req, res, result.token, result.expiresAt);
      return result.body;
    }),
    route({ method: 'get', path: '/signout', guard: 'session', summary: 'Sign out and clear the session cookie', response: SignoutResponse }, async ({ req, res, auth: session }) => {
      // Sign-out by GET is the interface's; an <img src> pointing here must not sign its viewer out.
      refuseSubresourceLoad(req);
      await auth.signout(session);
      clearSessionCookie(req, res);
      return { status: true };
    }),
    route({ method: 'post', path: '/add', guard: 'admin', body: AddUserRequest, invalid: 400, summary: 'Create an account (admin)', response: AddUserResponse }, ({ body }) => auth.addUser(body)),

    route({ method: 'post', path: '/api_key', guard: 'user', summary: 'Create (or replace) the caller’s API key `sk-…`', response: ApiKeyResponse }, async ({ user }) => ({ api_key: await auth.createApiKey(user.id) })),
    route({ method: 'get', path: '/api_key', guard: 'user', summary: 'The caller’s API key', response: ApiKeyResponse }, async ({ user }) => ({ api_key: await auth.getApiKey(user.id) })),
    route({ method: 'delete', path: '/api_key', guard: 'user', summary: 'Delete the caller’s API key', response: z.boolean() }, async ({ user }) => {
      await auth.deleteApiKey(user.id);
      return true;
    }),

    route({ method: 'post', path: '/update/profile', guard: 'user', body: UpdateProfileRequest, summary: 'Update the caller’s name, picture and info', response: UpdatedProfile }, ({ user, body }) =>
      auth.updateProfile(user, body),
    ),
    route({ method: 'post', path: '/update/password', guard: 'user', body: UpdatePasswordRequest, invalid: 400, summary: 'Change the caller’s password', response: z.boolean() }, async ({ req, auth: session, body }) => {
      await auth.updatePassword(session, body, req.ip ?? 'unknown');
      return true;
    }),

    // Admins see whether a user has an API key (never the key) and can revoke it.
    route({ method: 'get', path: '/admin/users/:user_id/api_key', guard: 'admin', summary: 'Whether a user holds an API key (admin)', response: ApiKeyInfo }, ({ params }) => auth.apiKeyInfo(params.user_id)),
    route({ method: 'delete', path: '/admin/users/:user_id/api_key', guard: 'admin', summary: 'Revoke a user’s API key (admin)', response: z.boolean() }, async ({ params }) => {
      await auth.revokeApiKeyOf(params.user_id);
      return true;
    }),

    route({ method: 'get', path: '/admin/config', guard: 'admin', summary: 'Account settings (sign-up, API keys, token lifetime)', response: AuthConfig }, () => auth.getConfig()),
    route({ method: 'post', path: '/admin/config', guard: 'admin', body: AuthConfigUpdate, invalid: 400, summary: 'Update account settings', response: AuthConfig }, ({ body }) => auth.updateConfig(body)),
  ];
}
