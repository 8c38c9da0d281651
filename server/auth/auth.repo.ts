import type { Db } from '../platform/db/knex';
import { createTableCache, tableFeed } from '../platform/db/table-cache';

interface ApiKeyRow {
  user_id: string;
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
}

/** Key owners kept at most; past this the cache starts over. */
const KEY_CACHE_LIMIT = 5_000;

/**
 * knex access to API key hashes and revoked session tokens. Both are read on every request, so
 * both are answered from memory: revoked token ids are loaded once and added to at sign-out
 * (expired ones dropped as they are met), key owners are cached by hash and dropped when the
 * user's key is replaced or deleted. This repo is the only writer of both tables (a deleted
 * user's key row goes by cascade, and their cached owner id then finds no user).
 */
export function createAuthRepo(db: Db) {
  let revoked: Map<string, number | null> | undefined;
  // Writes that bypass this repo (or cascades from a deleted user) drop what is cached.
  const revokedCache = createTableCache(() => {
    revoked = undefined;
  }, tableFeed(db, 'revoked_tokens'));
  // Revocations made before the first load finished; merged into it.
  const early = new Map<string, number | null>();
  let loading: Promise<Map<string, number | null>> | undefined;
  const revokedIds = (): Map<string, number | null> | Promise<Map<string, number | null>> => {
    if (revoked) return revoked;
    // A change seen while loading may be missing from the rows, and without a change feed
    // (PostgreSQL's LISTEN down) another instance's revocations would be missed: such a load is
    // used once, and made again next time.
    loading ??= revokedCache
      .read(
        async () => {
          const rows = await db('revoked_tokens').select<Array<{ token_id: string; expires_at: number | null }>>('token_id', 'expires_at');
          const map = new Map(rows.map((r) => [r.token_id, r.expires_at] as const));
          for (const [id, at] of early) map.set(id, at);
          return map;
        },
        (map) => {
          early.clear();
          revoked = map;
        },
      )
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  const keyOwners = new Map<string, string>();
  const keyCache = createTableCache(() => keyOwners.clear(), tableFeed(db, 'api_keys'));
  const keysOf = (userId: string) => () => {
    for (const [hash, owner] of keyOwners) if (owner === userId) keyOwners.delete(hash);
  };

  return {
    async apiKeyOwner(keyHash: string): Promise<string | undefined> {
      const cached = keyOwners.get(keyHash);
      if (cached) return cached;
      const row = await keyCache.read(
        () => db<ApiKeyRow>('api_keys').where({ key_hash: keyHash }).first('user_id'),
        (found) => {
          if (!found) return;
          if (keyOwners.size >= KEY_CACHE_LIMIT) keyOwners.clear();
          keyOwners.set(keyHash, found.user_id);
        },
      );
      return row?.user_id;
    },
    async hasApiKey(userId: string): Promise<boolean> {
      return (await db<ApiKeyRow>('api_keys').where({ user_id: userId }).first('user_id')) !== undefined;
    },
    /** Stores the hash of a user's key, replacing any previous key. */
    async putApiKey(userId: string, keyHash: string, now: number): Promise<void> {
      keyCache.invalidate(keysOf(userId));
      await db<ApiKeyRow>('api_keys')
        .insert({ user_id: userId, key_hash: keyHash, created_at: now, last_used_at: null })
        .onConflict('user_id')
        .merge(['key_hash', 'created_at', 'last_used_at']);
    },
    async deleteApiKey(userId: string): Promise<boolean> {
      return (await keyCache.write(() => db<ApiKeyRow>('api_keys').where({ user_id: userId }).delete(), keysOf(userId))) > 0;
    },
    /** When a user's API key was made and last used, for admins; undefined without a key. */
    async apiKeyInfo(userId: string): Promise<{ created_at: number; last_used_at: number | null } | undefined> {
      return db<ApiKeyRow>('api_keys').where({ user_id: userId }).first('created_at', 'last_used_at');
    },
    async touchApiKey(userId: string, now: number): Promise<void> {
      await db<ApiKeyRow>('api_keys').where({ user_id: userId }).update({ last_used_at: now });
    },
    async revokeToken(tokenId: string, expiresAt: number | null): Promise<void> {
      // In memory first: the token stops working before the write lands.
      (revoked ?? early).set(tokenId, expiresAt);
      await db('revoked_tokens').insert({ token_id: tokenId, expires_at: expiresAt }).onConflict('token_id').ignore();
    },
    /** True for a signed-out token. `now` (epoch seconds) drops ids whose token has expired anyway. */
    async isRevoked(tokenId: string, now?: number): Promise<boolean> {
      const ids = await revokedIds();
      if (!ids.has(tokenId)) return false;
      const expiresAt = ids.get(tokenId);
      if (now !== undefined && expiresAt != null && expiresAt < now) ids.delete(tokenId);
      return true;
    },
    /** Remembers a session token issued to `userId`, so it can be revoked with the others later. */
    async recordIssued(tokenId: string, userId: string, expiresAt: number | null, now: number): Promise<void> {
      await db('issued_tokens').insert({ token_id: tokenId, user_id: userId, expires_at: expiresAt, issued_at: now });
    },
    /**
     * Revokes every live session token of `userId` but `keepTokenId`, through the revoked-token
     * list (so anything honouring revocations sees it), and returns how many were revoked.
     */
    async revokeSessionsOf(userId: string, keepTokenId: string | undefined, now: number): Promise<number> {
      const rows = await db('issued_tokens')
        .where({ user_id: userId })
        .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>=', now))
        .select<Array<{ token_id: string; expires_at: number | null }>>('token_id', 'expires_at');
      const targets = rows.filter((r) => r.token_id !== keepTokenId);
      if (targets.length === 0) return 0;
      for (const r of targets) (revoked ?? early).set(r.token_id, r.expires_at);
      await db.transaction(async (trx) => {
        for (let i = 0; i < targets.length; i += 200) {
          const batch = targets.slice(i, i + 200);
          await trx('revoked_tokens').insert(batch).onConflict('token_id').ignore();
          await trx('issued_tokens').whereIn('token_id', batch.map((r) => r.token_id)).delete();
        }
      });
      return targets.length;
    },
    /** Deletes expired revocations and loads the rest into memory. */
    async pruneRevoked(now: number): Promise<void> {
      await db('issued_tokens').whereNotNull('expires_at').andWhere('expires_at', '<', now).delete();
      await db('revoked_tokens').whereNotNull('expires_at').andWhere('expires_at', '<', now).delete();
      const ids = await revokedIds();
      for (const [id, at] of ids) if (at != null && at < now) ids.delete(id);
    },
  };
}
export type AuthRepo = ReturnType<typeof createAuthRepo>;
