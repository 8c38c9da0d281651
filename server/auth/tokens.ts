import { randomBytes } from 'node:crypto';
import type * as Jose from 'jose';
import type { SecretStore } from '../secrets';
import { newId } from '../platform/ids';
import { loadExports } from '../platform/library-exports';

const SECRET_NAME = 'jwt-secret';
const ALG = 'HS256';

// jose is loaded at the first sign-in or token check, not at start-up.
let joseModule: Promise<Pick<typeof Jose, 'SignJWT' | 'jwtVerify' | 'errors'>> | undefined;
const jose = () => (joseModule ??= loadExports(import('jose'), 'jose', 'SignJWT', 'jwtVerify', 'errors'));

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

/** How many verified tokens are remembered (a few per active user). */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * Signs and verifies session JWTs. A token whose signature was checked once is remembered (by
 * its exact text, with its claims), so later requests skip the HMAC check, which runs through
 * WebCrypto on the thread pool and queues there behind password hashing and SQLite under load.
 * Expiry is still checked on every call; revocation and the user are checked by the caller.
 */
export function createTokenService(key: Uint8Array) {
  const verified = new Map<string, TokenClaims>();
  const remember = (token: string, claims: TokenClaims) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
  };
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
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt === null || known.expiresAt > nowSeconds) return known;
        verified.delete(token);
        return 'expired';
      }
      const { errors, jwtVerify } = await jose();
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALG], currentDate: new Date(nowSeconds * 1000) });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return 'invalid';
        const claims = { userId: payload.sub, tokenId: payload.jti, expiresAt: typeof payload.exp === 'number' ? payload.exp : null };
        remember(token, claims);
        return claims;
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
