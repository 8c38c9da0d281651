import { randomBytes } from 'node:crypto';
import type * as Jose from 'jose';
import type { SecretStore } from '../secrets';
import { newId } from '../platform/ids';

const SECRET_NAME = 'jwt-secret';
const ALG = 'HS256';

// jose is loaded at the first sign-in or token check, not at start-up.
let joseModule: Promise<typeof Jose> | undefined;
const jose = () => (joseModule ??= import('jose'));

/** The signing key, generated on first start and kept in the SecretStore. */
export async function loadJwtKey(secrets: SecretStore): Promise<Uint8Array> {
  let secret = await secrets.get(SECRET_NAME);
  if (!secret) {
    secret = randomBytes(48).toString('base64');
    await secrets.set(SECRET_NAME, secret);
  }
  return new Uint8Array(Buffer.from(secret, 'base64'));
}

/** What a verified session token says. */
export interface TokenClaims {
  userId: string;
  tokenId: string;
  /** Epoch seconds, or null for a token that never expires. */
  expiresAt: number | null;
}

/** Why a token was refused. */
export type TokenFailure = 'expired' | 'invalid';

/** Signs and verifies session JWTs. */
export function createTokenService(key: Uint8Array) {
  return {
    /** A token for `userId` living `lifetimeSeconds` (null = never expires). */
    async issue(userId: string, nowSeconds: number, lifetimeSeconds: number | null): Promise<{ token: string; expiresAt: number | null; tokenId: string }> {
      const tokenId = newId();
      const { SignJWT } = await jose();
      const jwt = new SignJWT({}).setProtectedHeader({ alg: ALG }).setSubject(userId).setJti(tokenId).setIssuedAt(nowSeconds);
      const expiresAt = lifetimeSeconds === null ? null : nowSeconds + lifetimeSeconds;
      if (expiresAt !== null) jwt.setExpirationTime(expiresAt);
      return { token: await jwt.sign(key), expiresAt, tokenId };
    },

    /** Verifies a token; returns its claims or why it failed. */
    async verify(token: string, nowSeconds: number): Promise<TokenClaims | TokenFailure> {
      const { errors, jwtVerify } = await jose();
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALG], currentDate: new Date(nowSeconds * 1000) });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return 'invalid';
        return { userId: payload.sub, tokenId: payload.jti, expiresAt: typeof payload.exp === 'number' ? payload.exp : null };
      } catch (error) {
        return error instanceof errors.JWTExpired ? 'expired' : 'invalid';
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

/** True when `value` looks like a JWT rather than an API key. */
export function looksLikeJwt(value: string): boolean {
  return value.split('.').length === 3 && !value.startsWith('sk-');
}
