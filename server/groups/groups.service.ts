import type { Role } from '../contracts/auth';
import type { CreateGroupRequest, Group, GroupUserIdsRequest, UpdateGroupRequest } from '../contracts/groups';
import type { Clock } from '../platform/clock';
import { writeJson } from '../platform/db/json';
import { badRequest, notFound } from '../platform/http/errors';
import { newId } from '../platform/ids';
import { presentGroup } from './groups.present';
import type { GroupRow, GroupsRepo } from './groups.repo';

const groupNotFound = () => notFound('Group not found', 'GROUP_NOT_FOUND');

/** Groups: named sets of users that share access lists and grant permissions. */
export function createGroupsService(deps: { repo: GroupsRepo; clock: Clock }) {
  const { repo, clock } = deps;

  async function load(id: string): Promise<Group> {
    const row = await repo.findById(id);
    if (!row) throw groupNotFound();
    return presentGroup(row);
  }

  /** Refuses ids of users that do not exist, naming them. */
  async function requireUsers(ids: readonly string[]): Promise<void> {
    const found = await repo.existingUserIds(ids);
    const unknown = [...new Set(ids)].filter((id) => !found.has(id));
    if (unknown.length === 0) return;
    const shown = unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? `, … (${unknown.length} in all)` : '');
    throw badRequest(`Unknown user id(s) in 'user_ids': ${shown}`, 'USER_NOT_FOUND');
  }

  async function mustExist(id: string): Promise<void> {
    if (!(await repo.findById(id))) throw groupNotFound();
  }

  return {
    /** Admins see every group; everyone else only the groups they belong to. */
    async list(caller: { id: string; role: Role }): Promise<Group[]> {
      const rows = caller.role === 'admin' ? await repo.all() : await repo.ofUser(caller.id);
      return rows.map(presentGroup);
    },

    /** The groups a user belongs to. */
    async ofUser(userId: string): Promise<Group[]> {
      return (await repo.ofUser(userId)).map(presentGroup);
    },

    async get(id: string): Promise<Group> {
      return load(id);
    },

    /** Creates a group with no members. */
    async create(creatorId: string, body: CreateGroupRequest): Promise<Group> {
      const now = clock.now();
      const row: GroupRow = {
        id: newId(),
        name: body.name,
        description: body.description,
        permissions: writeJson(body.permissions ?? {}),
        created_by: creatorId,
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      return load(row.id);
    },

    /** Changes name, description, permissions; `user_ids`, when given, replaces the members. */
    async update(id: string, body: UpdateGroupRequest): Promise<Group> {
      await mustExist(id);
      if (body.user_ids) await requireUsers(body.user_ids);
      const patch: Partial<GroupRow> = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.description !== undefined) patch.description = body.description;
      if (body.permissions !== undefined) patch.permissions = writeJson(body.permissions ?? {});
      await repo.change(id, patch, { replace: body.user_ids }, clock.now());
      return load(id);
    },

    /** Adds members, keeping the existing ones. */
    async addUsers(id: string, body: GroupUserIdsRequest): Promise<Group> {
      await mustExist(id);
      await requireUsers(body.user_ids);
      await repo.change(id, {}, { add: body.user_ids }, clock.now());
      return load(id);
    },

    /** Removes members; ids that are not members are ignored. */
    async removeUsers(id: string, body: GroupUserIdsRequest): Promise<Group> {
      await mustExist(id);
      await repo.change(id, {}, { remove: body.user_ids }, clock.now());
      return load(id);
    },

    async delete(id: string): Promise<void> {
      if (!(await repo.delete(id))) throw groupNotFound();
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
