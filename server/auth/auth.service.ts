import { randomBytes } from 'node:crypto';
import type { AddUserRequest, AddUserResponse, AuthConfig, SessionResponse, SignupRequest, UpdatePasswordRequest, UpdateProfileRequest } from '../contracts/auth';
import { DEFAULT_PROFILE_IMAGE_URL, type User } from '../contracts/users';
import type { ConfigService } from '../config';
import type { Clock } from '../platform/clock';
import { sha256Hex } from '../platform/crypto';
import { readJson, writeJson } from '../platform/db/json';
import { onUniqueViolation } from '../platform/db/translate-error';
import { badRequest, forbidden, notFound } from '../platform/http/errors';
import { newId } from '../platform/ids';
import type { Logger } from '../platform/log';
import { parseDuration } from '../platform/duration';
import type { AddressSet } from '../platform/http/trusted-proxies';
import type { PermissionsService } from '../permissions';
import type { SecretStore } from '../secrets';
import { isPrimaryAdmin, presentUser, safeImageUrl, type UserRow, type UsersRepo } from '../users';
import type { AuthContext, AuthFailure, SessionUser } from '../session';
import { AuthConfigSection } from './auth-config';
import type { AuthRepo } from './auth.repo';
import { dummyHash, hashPassword, verifyPassword } from './passwords';
import type { SigninLimiter } from './signin-limiter';
import type { SignupLimiter } from './signup-limiter';
import { looksLikeJwt, type TokenService } from './tokens';

/** The live connections (socket.io) of sessions, dropped the moment their session ends. */
export interface SessionSockets {
  disconnectToken(tokenId: string): void;
  disconnectTokensOf(userId: string, keepTokenId?: string): void;
  disconnectApiKeyOf(userId: string): void;
  disconnectApiKeys(): void;
}

export interface AuthServiceDeps {
  users: UsersRepo;
  repo: AuthRepo;
  tokens: TokenService;
  config: ConfigService;
  permissions: PermissionsService;
  secrets: SecretStore;
  limiter: SigninLimiter;
  signupLimiter: SignupLimiter;
  clock: Clock;
  log: Logger;
  sockets: SessionSockets;
  /** Set when a trusted proxy signs people in by header (SSO). */
  trustedEmailHeader?: string;
  trustedNameHeader?: string;
  /** PARLEY_TRUSTED_PROXIES: the only peers whose SSO header is believed. */
  trustedProxies?: AddressSet;
}

/** Where a sign-in request came from, for deciding whether its SSO header may be believed. */
export interface SigninPeer {
  /** The TCP peer's address (not a forwarded one). */
  address: string | undefined;
  /** True when it came through the LAN listener, which no proxy is in front of. */
  lan: boolean;
}

const apiKeySecretName = (userId: string) => `api-key:${userId}`;
const emailTaken = () => badRequest('This email is already registered', 'EMAIL_TAKEN');

/** Accounts, sessions, API keys and the auth admin settings. */
export function createAuthService(deps: AuthServiceDeps) {
  const { users, repo, tokens, config, clock } = deps;
  const lastTouch = new Map<string, number>();

  async function session(user: SessionUser, withExtras: boolean): Promise<{ body: SessionResponse; token: string; expiresAt: number | null }> {
    const settings = await config.get(AuthConfigSection);
    const lifetime = parseDuration(settings.JWT_EXPIRES_IN);
    const issued = await tokens.issue(user.id, clock.now(), lifetime === undefined ? 7 * 86_400 : lifetime);
    await repo.recordIssued(issued.tokenId, user.id, issued.expiresAt, clock.now());
    return { body: await sessionBody(user, issued.token, issued.expiresAt, withExtras), token: issued.token, expiresAt: issued.expiresAt };
  }

  async function sessionBody(user: SessionUser, token: string, expiresAt: number | null, withExtras: boolean): Promise<SessionResponse> {
    const body: SessionResponse = {
      token,
      token_type: 'Bearer',
      expires_at: expiresAt,
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      profile_image_url: safeImageUrl(user.profile_image_url),
    };
    if (withExtras) body.permissions = await deps.permissions.effective(user);
    return body;
  }

  async function createUser(input: { name: string; email: string; password: string | null; role: AuthConfig['DEFAULT_USER_ROLE']; profileImageUrl?: string }): Promise<UserRow> {
    const now = clock.now();
    const hash = input.password === null ? null : await hashPassword(input.password);
    return onUniqueViolation(
      () =>
        users.createWithPassword(
          {
            id: newId(),
            name: input.name,
            email: input.email.toLowerCase(),
            role: input.role,
            profile_image_url: input.profileImageUrl || DEFAULT_PROFILE_IMAGE_URL,
            info: '{}',
            settings: '{}',
            created_at: now,
            updated_at: now,
            last_active_at: now,
          },
          hash,
          { firstUserIsAdmin: true },
        ),
      emailTaken,
    );
  }

  return {
    /** Creates an account (the first one becomes the primary admin) and signs it in. */
    async signup(body: SignupRequest, ip: string) {
      const settings = await config.get(AuthConfigSection);
      const isFirst = (await users.count()) === 0;
      if (!settings.ENABLE_SIGNUP && !isFirst) throw forbidden('Sign-up is disabled on this workspace', 'SIGNUP_DISABLED');
      await deps.signupLimiter.consume(ip);
      if (await users.findByEmail(body.email)) throw emailTaken();
      const user = await createUser({ name: body.name, email: body.email, password: body.password, role: settings.DEFAULT_USER_ROLE, profileImageUrl: body.profile_image_url });
      deps.log.info({ userId: user.id, role: user.role }, 'account created by sign-up');
      return session(user, true);
    },

    /**
     * Checks email and password, with failed attempts rate limited per account and IP. The SSO
     * header counts only from a configured proxy address, and never on the LAN listener.
     */
    async signin(email: string, password: string, ip: string, headers: Record<string, string | string[] | undefined>, peer: SigninPeer) {
      const fromProxy = !peer.lan && (deps.trustedProxies?.has(peer.address) ?? false);
      const trusted = deps.trustedEmailHeader && fromProxy ? headers[deps.trustedEmailHeader.toLowerCase()] : undefined;
      if (typeof trusted === 'string' && trusted.length > 0) return this.signinTrusted(trusted, headers);
      if (!email) throw badRequest("Field 'email' is required", 'VALIDATION_FAILED');
      if (!password) throw badRequest("Field 'password' is required", 'VALIDATION_FAILED');
      await deps.limiter.check(email, ip);
      const user = await users.findByEmail(email);
      // Hashing queues fairly by address, then account: a flood from one place does not hold up anyone else.
      const ok = await verifyPassword(password, user ? await users.passwordHash(user.id) : await dummyHash(), { address: ip, account: email.trim().toLowerCase() });
      if (!user || !ok) {
        await deps.limiter.failed(email, ip);
        throw badRequest('The email or password is incorrect', 'INVALID_CREDENTIALS');
      }
      await deps.limiter.succeeded(email);
      return session(user, true);
    },

    /** Trusted-header SSO: the proxy vouches for the email; the account is created on first sight. */
    async signinTrusted(email: string, headers: Record<string, string | string[] | undefined>) {
      const normalised = email.trim().toLowerCase();
      let user = await users.findByEmail(normalised);
      if (!user) {
        const nameHeader = deps.trustedNameHeader ? headers[deps.trustedNameHeader.toLowerCase()] : undefined;
        const settings = await config.get(AuthConfigSection);
        user = await createUser({
          name: typeof nameHeader === 'string' && nameHeader ? nameHeader : normalised.split('@')[0] || normalised,
          email: normalised,
          password: null,
          role: settings.DEFAULT_USER_ROLE,
        });
      }
      return session(user, true);
    },

    /**
     * The desktop owner: the primary admin, created without a password on the app's first start
     * (they set one when they first share on the LAN or sign in elsewhere). Returns the owner
     * when one exists, or creates it when the workspace has no account yet; undefined when the
     * workspace already has accounts but no primary admin to hand over to.
     */
    async ensureOwner(name: string): Promise<UserRow | undefined> {
      const everyone = await users.all();
      const owner = everyone.find((u) => isPrimaryAdmin(u) && u.role === 'admin');
      if (owner) return owner;
      if (everyone.length > 0) return undefined;
      const created = await createUser({ name, email: 'owner@parley.local', password: null, role: 'admin' });
      deps.log.info({ userId: created.id }, 'desktop owner created');
      return created;
    },

    /** A session for a user the caller has already vouched for (the desktop owner handover). */
    async sessionFor(user: UserRow) {
      return session(user, true);
    },

    /** Whether the user has a password yet (the desktop owner starts without one). */
    async hasPassword(userId: string): Promise<boolean> {
      return (await users.passwordHash(userId)) !== null;
    },

    /**
     * Whether the user must set a password before the workspace is reached from other devices
     * (LAN sharing): true for an account without one (the desktop owner), unless sign-in is
     * handled by a trusted header (SSO), where passwords are not used.
     */
    async needsPassword(userId: string): Promise<boolean> {
      if (deps.trustedEmailHeader) return false;
      return (await users.passwordHash(userId)) === null;
    },

    /** The current session with a fresh token. */
    /**
     * The current session with effective permissions: the credential the caller presented, as
     * Open WebUI answers it. Nothing is minted or stored per call (a new token per call let any
     * account grow `issued_tokens` by thousands a second); the cookie is set again as it is.
     */
    async current(auth: AuthContext): Promise<{ body: SessionResponse; token: string; expiresAt: number | null }> {
      const expiresAt = auth.via === 'jwt' ? (auth.tokenExpiresAt ?? null) : null;
      return { body: await sessionBody(auth.user, auth.credential, expiresAt, true), token: auth.credential, expiresAt };
    },

    /** Ends the session: the presented token stops working at once, and its live connections close. */
    async signout(auth: AuthContext): Promise<void> {
      if (auth.via !== 'jwt' || !auth.tokenId) return;
      await repo.revokeToken(auth.tokenId, auth.tokenExpiresAt ?? null);
      deps.sockets.disconnectToken(auth.tokenId);
    },

    /** Admin creates an account with any role. */
    async addUser(body: AddUserRequest): Promise<AddUserResponse> {
      if (await users.findByEmail(body.email)) throw emailTaken();
      const user = await createUser({ name: body.name, email: body.email, password: body.password, role: body.role, profileImageUrl: body.profile_image_url });
      const { token } = await session(user, false);
      return { token, id: user.id, email: user.email, name: user.name, role: user.role };
    },

    /** Creates (or replaces) the caller's API key. */
    async createApiKey(userId: string): Promise<string> {
      const settings = await config.get(AuthConfigSection);
      if (!settings.ENABLE_API_KEY) throw forbidden('API keys are disabled by the administrator', 'API_KEYS_DISABLED');
      const key = `sk-${randomBytes(24).toString('hex')}`;
      await deps.secrets.set(apiKeySecretName(userId), key);
      await repo.putApiKey(userId, sha256Hex(key), clock.now());
      // The key it replaces is dead: so are its live connections.
      deps.sockets.disconnectApiKeyOf(userId);
      return key;
    },

    async getApiKey(userId: string): Promise<string> {
      if (!(await repo.hasApiKey(userId))) throw notFound('No API key has been created yet', 'API_KEY_NOT_FOUND');
      const key = await deps.secrets.get(apiKeySecretName(userId));
      if (!key) throw notFound('The API key is no longer available; create a new one', 'API_KEY_NOT_FOUND');
      return key;
    },

    async deleteApiKey(userId: string): Promise<void> {
      await repo.deleteApiKey(userId);
      deps.sockets.disconnectApiKeyOf(userId);
      await deps.secrets.delete(apiKeySecretName(userId));
    },

    async updateProfile(user: SessionUser, body: UpdateProfileRequest): Promise<Pick<User, 'id' | 'name' | 'email' | 'profile_image_url' | 'info'>> {
      const patch: Partial<UserRow> = { name: body.name, updated_at: clock.now() };
      if (body.profile_image_url !== undefined) patch.profile_image_url = body.profile_image_url || DEFAULT_PROFILE_IMAGE_URL;
      if (body.info !== undefined) patch.info = writeJson(body.info ?? {});
      const row = (await users.update(user.id, patch)) as UserRow;
      const { id, name, email, profile_image_url, info } = presentUser(row);
      return { id, name, email, profile_image_url, info: info ?? readJson(row.info, {}) };
    },

    /**
     * Changes the caller's password after checking the current one (wrong guesses count against
     * the sign-in limit of the account and address), then ends every other session of theirs.
     */
    async updatePassword(auth: AuthContext, body: UpdatePasswordRequest, ip: string): Promise<void> {
      if (deps.trustedEmailHeader) {
        throw forbidden('Password changes are disabled while sign-in is handled by a trusted header (SSO)', 'SSO_ENABLED');
      }
      const { user } = auth;
      await deps.limiter.check(user.email, ip);
      const current = await users.passwordHash(user.id);
      // An account created without a password (the desktop owner) sets its first one here.
      const ok = current === null ? body.password === '' : await verifyPassword(body.password, current);
      if (!ok) {
        await deps.limiter.failed(user.email, ip);
        throw badRequest('The current password is incorrect', 'WRONG_PASSWORD');
      }
      await users.setPasswordHash(user.id, await hashPassword(body.new_password), clock.now());
      await this.revokeSessions(user.id, auth.via === 'jwt' ? auth.tokenId : undefined);
    },

    /** Ends every session of a user but `keepTokenId` (after a password change or an admin reset), live connections included. */
    async revokeSessions(userId: string, keepTokenId?: string): Promise<void> {
      const count = await repo.revokeSessionsOf(userId, keepTokenId, clock.now());
      deps.sockets.disconnectTokensOf(userId, keepTokenId);
      if (count > 0) deps.log.info({ userId, count }, 'other sessions ended after a password change');
    },

    /** Whether a user has an API key, and when it was made and last used (admins see this, never the key). */
    async apiKeyInfo(userId: string): Promise<{ exists: boolean; created_at: number | null; last_used_at: number | null }> {
      if (!(await users.findById(userId))) throw notFound('User not found', 'USER_NOT_FOUND');
      const info = await repo.apiKeyInfo(userId);
      return { exists: info !== undefined, created_at: info?.created_at ?? null, last_used_at: info?.last_used_at ?? null };
    },

    /** An admin revokes a user's API key. */
    async revokeApiKeyOf(userId: string): Promise<void> {
      if (!(await users.findById(userId))) throw notFound('User not found', 'USER_NOT_FOUND');
      await this.deleteApiKey(userId);
    },

    async getConfig(): Promise<AuthConfig> {
      return config.get(AuthConfigSection);
    },

    async updateConfig(patch: Partial<AuthConfig>): Promise<AuthConfig> {
      const updated = await config.update(AuthConfigSection, patch);
      // Keys switched off are refused from now on, on live connections too.
      if (!updated.ENABLE_API_KEY) deps.sockets.disconnectApiKeys();
      return updated;
    },

    /**
     * Resolves a credential to the user it belongs to. User rows, key owners and revoked ids are
     * served from memory; every write to them drops the cached copy, so a deleted or demoted
     * user or a signed-out token loses access at once. `recheck` is a later check of a connection
     * already open (not new activity of the user).
     */
    async authenticate(credential: string, options: { recheck?: boolean } = {}): Promise<AuthContext | AuthFailure> {
      const now = clock.now();
      if (credential.startsWith('sk-')) {
        const ownerId = await repo.apiKeyOwner(sha256Hex(credential));
        if (!ownerId) return 'invalid';
        if (!(await config.get(AuthConfigSection)).ENABLE_API_KEY) return 'api_key_disabled';
        const user = await users.findById(ownerId);
        if (!user) return 'invalid';
        if (!options.recheck) this.noteActivity(user.id, now);
        return { user, via: 'api_key', credential };
      }
      if (!looksLikeJwt(credential)) return 'invalid';
      const claims = await tokens.verify(credential, now);
      if (typeof claims === 'string') return claims;
      if (await repo.isRevoked(claims.tokenId, now)) return 'invalid';
      const user = await users.findById(claims.userId);
      if (!user) return 'invalid';
      if (!options.recheck) this.noteActivity(user.id, now);
      return { user, via: 'jwt', tokenId: claims.tokenId, tokenExpiresAt: claims.expiresAt, credential };
    },

    /** Records that a user was active, at most once a minute per user. */
    noteActivity(userId: string, now: number): void {
      if ((lastTouch.get(userId) ?? 0) > now - 60) return;
      lastTouch.set(userId, now);
      users.touchActive(userId, now).catch((error: unknown) => deps.log.warn({ err: error }, 'could not record activity'));
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
