import type { Role } from '../contracts/auth';

/**
 * The signed-in account as a request sees it: who they are and what role they hold. `users`'
 * `UserRow` satisfies it; it lives here so the guards need no domain.
 */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  profile_image_url: string;
  is_primary_admin: number | boolean;
}

/** Who made a request, and how they proved it. */
export interface AuthContext {
  user: SessionUser;
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
