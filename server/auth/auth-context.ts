import type { UserRow } from '../users/users.repo';

/** Who made a request, and how they proved it. */
export interface AuthContext {
  user: UserRow;
  /** `jwt` for a session token (header or cookie), `api_key` for an `sk-` key. */
  via: 'jwt' | 'api_key';
  /** The session token's id and expiry, for sign-out and refresh. */
  tokenId?: string;
  tokenExpiresAt?: number | null;
  /** The raw bearer credential, for tool servers with auth_type `session`. */
  credential: string;
}

/** Why a request carrying credentials was not authenticated. */
export type AuthFailure = 'expired' | 'invalid' | 'api_key_disabled';
