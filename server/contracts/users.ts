import { z } from 'zod';
import { ProfileImageUrl } from './profile-image';
import { Email, Password, Role } from './auth';

/** A user as the API shows it. */
export const User = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
  profile_image_url: z.string(),
  info: z.record(z.string(), z.unknown()),
  created_at: z.number(),
  last_active_at: z.number().optional(),
});
export type User = z.infer<typeof User>;

/** Answer of POST /auths/update/profile. */
export const UpdatedProfile = User.pick({ id: true, name: true, email: true, profile_image_url: true, info: true });

/** The default avatar path shown for accounts without a picture. */
export const DEFAULT_PROFILE_IMAGE_URL = '/user.png';

/** Page size of GET /api/v1/users/, fixed by the interface. */
export const USER_PAGE_SIZE = 30;

/** Columns the user list may be ordered by. */
export const UserOrderBy = z.enum(['name', 'email', 'role', 'created_at', 'last_active_at']);
export type UserOrderBy = z.infer<typeof UserOrderBy>;

/** Query of GET /api/v1/users/. */
export const UserListQuery = z.object({
  /** Filters by name or email, case-insensitively. */
  query: z.string().max(320).optional(),
  /** Default `created_at` (newest first). */
  order_by: UserOrderBy.optional(),
  /** Default `asc` when `order_by` is given, else `desc`. */
  direction: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more').max(1_000_000).default(1),
  /** Only members of this group. */
  group_id: z.string().max(100).optional(),
  /** Only users of this role (`pending`: the sign-ups waiting for approval). */
  role: Role.optional(),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

/** Query of GET /api/v1/users/search. */
export const UserSearchQuery = z.object({ query: z.string().max(320).optional() });

/** One row of the admin user list. */
export const UserListItem = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
  profile_image_url: z.string(),
  created_at: z.number(),
  /** Epoch seconds of the last authenticated request (at most a minute stale). */
  last_active_at: z.number(),
});
export type UserListItem = z.infer<typeof UserListItem>;

/** Answer of GET /api/v1/users/ and /all. */
export const UserListResponse = z.object({
  users: z.array(UserListItem),
  /** Total number of matches (not just this page). */
  count: z.number(),
});
export type UserListResponse = z.infer<typeof UserListResponse>;

/** Answer of GET /api/v1/users/search: names for sharing pickers. */
export const UserSearchResponse = z.object({ users: z.array(z.object({ id: z.string(), name: z.string() })) });

/** Answer of GET /api/v1/users/active. */
export const ActiveUsers = z.object({ user_ids: z.array(z.string()) });

/** Answer of GET /api/v1/users/{user_id}/active. */
export const ActiveStatus = z.object({ active: z.boolean() });

/** What any verified user may see of another user. */
export const PublicUser = z.object({
  name: z.string(),
  profile_image_url: z.string(),
  active: z.boolean(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** UI settings: a free object saved whole per user. */
export const UserSettings = z.looseObject({
  theme: z.string().max(100).optional(),
  language: z.string().max(100).optional(),
  sidebar: z.looseObject({ collapsed: z.boolean().optional() }).optional(),
  /** Memory on in new chats (what the person's memories say joins the model's context). */
  memory: z.boolean().optional(),
  /** After a turn, propose things to remember (off unless turned on). */
  memory_suggestions: z.boolean().optional(),
});
export type UserSettings = z.infer<typeof UserSettings>;

/** The free key-value info dictionary of a user. */
export const UserInfo = z.record(z.string(), z.unknown());
export type UserInfo = z.infer<typeof UserInfo>;

/** Body of POST /api/v1/users/{user_id}/update (admin). Omitted fields keep their value. */
export const AdminUserUpdate = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  email: Email.optional(),
  role: Role.optional(),
  profile_image_url: ProfileImageUrl.optional(),
  /** A new password; empty or absent keeps the current one. */
  password: z.union([z.literal(''), Password]).nullable().optional(),
  /** Merged over the stored info. */
  info: UserInfo.nullable().optional(),
});
export type AdminUserUpdate = z.infer<typeof AdminUserUpdate>;

/** Answer of POST /api/v1/users/user/profile/image. */
export const ProfileImageUpload = z.object({
  /** Where the image can be fetched (usable as `profile_image_url`). */
  url: z.string(),
  filename: z.string(),
  /** The path to pass to GET/DELETE /api/v1/users/profile/image?path=. */
  storage_path: z.string(),
});
export type ProfileImageUpload = z.infer<typeof ProfileImageUpload>;

/** Largest profile image accepted, in bytes (larger uploads answer 413). */
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Query of GET/DELETE /api/v1/users/profile/image. */
export const ProfileImagePathQuery = z.object({ path: z.string().min(1, 'must not be empty').max(500) });
export type ProfileImagePathQuery = z.infer<typeof ProfileImagePathQuery>;
