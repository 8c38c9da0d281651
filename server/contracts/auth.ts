import { z } from 'zod';
import { ProfileImageUrl } from './profile-image';
import { Permissions } from './permissions';

/** A role: `pending` users wait for an admin's approval. */
export const Role = z.enum(['pending', 'user', 'admin']);
export type Role = z.infer<typeof Role>;

/** Email: trimmed, lower-cased, of a plausible form. */
export const Email = z
  .string()
  .trim()
  .max(320, 'must be at most 320 characters')
  .pipe(z.email('must be a valid email address'))
  .transform((e) => e.toLowerCase());

/** Fewest characters a new password may have (the service is reachable from the whole office network). */
export const PASSWORD_MIN_LENGTH = 8;
/** Most bytes of a password: bcrypt reads at most 72, so longer ones are refused instead of cut. */
export const PASSWORD_MAX_BYTES = 72;

/** Why a new password is refused, or null when it is fine (shared by the forms and the service). */
export function passwordProblem(password: string): 'tooShort' | 'tooLong' | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES) return 'tooLong';
  return null;
}

/**
 * A new password (sign-up, admin add, password change): at least PASSWORD_MIN_LENGTH characters
 * and at most 72 bytes. Sign-in takes any password, so accounts made before the rule keep working.
 */
export const Password = z
  .string()
  .refine((p) => passwordProblem(p) !== 'tooShort', `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .refine((p) => passwordProblem(p) !== 'tooLong', `must be at most ${PASSWORD_MAX_BYTES} bytes (bcrypt limit)`);

const Name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const SignupRequest = z.object({
  name: Name,
  email: Email,
  password: Password,
  profile_image_url: ProfileImageUrl.optional(),
});
export type SignupRequest = z.infer<typeof SignupRequest>;

/** Sign-in; both fields may be empty only when a trusted proxy header vouches for the user. */
export const SigninRequest = z.object({
  email: z.string().trim().max(320).transform((e) => e.toLowerCase()).default(''),
  password: z.string().max(1000).default(''),
});
export type SigninRequest = z.infer<typeof SigninRequest>;

export const AddUserRequest = z.object({
  name: Name,
  email: Email,
  password: Password,
  role: Role.default('pending'),
  profile_image_url: ProfileImageUrl.optional(),
});
export type AddUserRequest = z.infer<typeof AddUserRequest>;

export const UpdateProfileRequest = z.object({
  name: Name,
  profile_image_url: ProfileImageUrl.optional(),
  info: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;

export const UpdatePasswordRequest = z.object({
  password: z.string().max(1000),
  new_password: Password,
});
export type UpdatePasswordRequest = z.infer<typeof UpdatePasswordRequest>;

/** Session response of sign-up, sign-in and the current session. */
export const SessionResponse = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  /** Epoch seconds; null when tokens never expire (JWT_EXPIRES_IN `-1`). */
  expires_at: z.number().nullable(),
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
  profile_image_url: z.string(),
  permissions: Permissions.optional(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

/** Answer of POST /auths/add. */
export const AddUserResponse = z.object({
  token: z.string(),
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: Role,
});
export type AddUserResponse = z.infer<typeof AddUserResponse>;

/** Answer of GET/POST /auths/api_key: the caller's key `sk-…`. */
export const ApiKeyResponse = z.object({ api_key: z.string() });

/** Answer of GET /auths/admin/users/{user_id}/api_key: whether a key exists, never the key. */
export const ApiKeyInfo = z.object({ exists: z.boolean(), created_at: z.number().nullable(), last_used_at: z.number().nullable() });

/** Answer of GET /auths/signout. */
export const SignoutResponse = z.object({ status: z.boolean() });

/** Auth admin config. */
export const AuthConfig = z.object({
  ENABLE_SIGNUP: z.boolean(),
  ENABLE_API_KEY: z.boolean(),
  DEFAULT_USER_ROLE: Role,
  /** `30m`, `7d`, `2w`…, or `-1` for tokens that never expire. */
  JWT_EXPIRES_IN: z.string().refine((v) => /^(-1|\d{1,9}[smhdw])$/.test(v.trim()) && !/^0+[smhdw]$/.test(v.trim()), 'must be a duration such as 30m, 12h, 7d, 2w, or -1 for never'),
  ENABLE_MESSAGE_RATING: z.boolean(),
  ENABLE_CHANNELS: z.boolean(),
  ENABLE_NOTES: z.boolean(),
  ENABLE_OAUTH: z.boolean(),
  SHOW_ADMIN_DETAILS: z.boolean(),
});
export type AuthConfig = z.infer<typeof AuthConfig>;

/** A partial update of the auth admin config; fields not listed are ignored. */
export const AuthConfigUpdate = AuthConfig.partial();

export const DEFAULT_AUTH_CONFIG: AuthConfig = {
  ENABLE_SIGNUP: true,
  ENABLE_API_KEY: true,
  DEFAULT_USER_ROLE: 'pending',
  JWT_EXPIRES_IN: '7d',
  ENABLE_MESSAGE_RATING: true,
  ENABLE_CHANNELS: false,
  ENABLE_NOTES: true,
  ENABLE_OAUTH: false,
  SHOW_ADMIN_DETAILS: true,
};
export type AuthConfigUpdate = z.infer<typeof AuthConfigUpdate>;
