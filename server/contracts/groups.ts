import { z } from 'zod';
import { PartialPermissions } from './permissions';

/** A group as the API shows it. */
export const Group = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** What membership grants, on top of the system defaults (possibly partial). */
  permissions: PartialPermissions,
  user_ids: z.array(z.string()),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Group = z.infer<typeof Group>;

const GroupName = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const Description = z.string().max(5_000, 'must be at most 5000 characters');
const UserIds = z.array(z.string().min(1).max(100)).max(10_000);

/** Body of POST /api/v1/groups/create. */
export const CreateGroupRequest = z.object({
  name: GroupName,
  description: Description.default(''),
  permissions: PartialPermissions.nullable().optional(),
});
export type CreateGroupRequest = z.infer<typeof CreateGroupRequest>;

/** Body of POST /api/v1/groups/id/{id}/update. Omitted fields keep their value; `user_ids` replaces the members. */
export const UpdateGroupRequest = z.object({
  name: GroupName.optional(),
  description: Description.optional(),
  permissions: PartialPermissions.nullable().optional(),
  user_ids: UserIds.optional(),
});
export type UpdateGroupRequest = z.infer<typeof UpdateGroupRequest>;

/** Body of POST /api/v1/groups/id/{id}/users/add and /users/remove. */
export const GroupUserIdsRequest = z.object({ user_ids: UserIds });
export type GroupUserIdsRequest = z.infer<typeof GroupUserIdsRequest>;
