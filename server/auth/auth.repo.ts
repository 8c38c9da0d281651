import type { Db } from '../platform/db/knex';

interface ApiKeyRow {
  user_id: string;
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
}

/** knex access to API key hashes and revoked session tokens. */
export function createAuthRepo(db: Db) {
  return {
    async apiKeyOwner(keyHash: string): Promise<string | undefined> {
      const row = await db<ApiKeyRow>('api_keys').where({ key_hash: keyHash }).first('user_id');
      return row?.user_id;
    },
    async hasApiKey(userId: string): Promise<boolean> {
      return (await db<ApiKeyRow>('api_keys').where({ user_id: userId }).first('user_id')) !== undefined;
    },
    /** Stores the hash of a user's key, replacing any previous key. */
    async putApiKey(userId: string, keyHash: string, now: number): Promise<void> {
      await db<ApiKeyRow>('api_keys')
        .insert({ user_id: userId, key_hash: keyHash, created_at: now, last_used_at: null })
        .onConflict('user_id')
        .merge(['key_hash', 'created_at', 'last_used_at']);
    },
    async deleteApiKey(userId: string): Promise<boolean> {
      return (await db<ApiKeyRow>('api_keys').where({ user_id: userId }).delete()) > 0;
    },
    async touchApiKey(userId: string, now: number): Promise<void> {
      await db<ApiKeyRow>('api_keys').where({ user_id: userId }).update({ last_used_at: now });
    },
    async revokeToken(tokenId: string, expiresAt: number | null): Promise<void> {
      await db('revoked_tokens').insert({ token_id: tokenId, expires_at: expiresAt }).onConflict('token_id').ignore();
    },
    async isRevoked(tokenId: string): Promise<boolean> {
      return (await db('revoked_tokens').where({ token_id: tokenId }).first('token_id')) !== undefined;
    },
    async pruneRevoked(now: number): Promise<void> {
      await db('revoked_tokens').whereNotNull('expires_at').andWhere('expires_at', '<', now).delete();
    },
  };
}
export type AuthRepo = ReturnType<typeof createAuthRepo>;
