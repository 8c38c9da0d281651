import type { Permissions } from '../contracts/permissions';
import {
  DEFAULT_PROFILE_IMAGE_URL,
  type AdminUserUpdate,
  type ProfileImageUpload,
  type PublicUser,
  type User,
  USER_PAGE_SIZE,
  type UserInfo,
  type UserListQuery,
  type UserListResponse,
  type UserSettings,
} from '../contracts/users';
import type { Group } from '../contracts/groups';
import type { Clock } from '../platform/clock';
import { readJson, writeJson } from '../platform/db/json';
import { onUniqueViolation } from '../platform/db/translate-error';
import { badRequest, forbidden, notFound } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import type { PermissionsService } from '../permissions';
import type { ProfileImageStore, StoredImage } from './profile-images';
import type { UploadedFile } from './read-upload';
import { createUserDeletionHooks } from './user-deletion';
import { isPrimaryAdmin, presentListItem, presentUser, safeImageUrl } from './users.present';
import type { SessionUser } from '../session';
import type { UserRow, UsersRepo } from './users.repo';
import { loadFileType } from '../platform/lazy-libraries';

/** Finds the owner of a shared chat (`shared-{chat_id}`); undefined when there is no such share. */
export type SharedChatOwnerResolver = (chatId: string) => Promise<string | undefined>;

export interface UsersServiceDeps {
  repo: UsersRepo;
  permissions: PermissionsService;
  /** The groups a user belongs to, as the API shows them. */
  groupsOf: (userId: string) => Promise<Group[]>;
  presence: { isActive(userId: string): boolean; activeUserIds(): string[]; disconnectUser(userId: string): void };
  images: ProfileImageStore;
  hashPassword: (password: string) => Promise<string>;
  clock: Clock;
  log: Logger;
}

const userNotFound = () => notFound('User not found', 'USER_NOT_FOUND');
const SEARCH_LIMIT = 50;

/** The URL a stored profile image is served at. */
export function profileImageUrl(storagePath: string): string {
  return `/api/v1/users/profile/image?path=${encodeURIComponent(storagePath)}`;
}

/** Users (section 4.2): lists, settings, profile images, admin updates and deletion. */
export function createUsersService(deps: UsersServiceDeps) {
  const { repo, clock, images } = deps;
  const deletion = createUserDeletionHooks(deps.log);
  let resolveSharedChatOwner: SharedChatOwnerResolver = async () => undefined;
  const passwordResetListeners: Array<(userId: string) => Promise<void>> = [];

  async function load(id: string): Promise<UserRow> {
    const row = await repo.findById(id);
    if (!row) throw userNotFound();
    return row;
  }

  return {
    beforeUserDeleted: deletion.beforeUserDeleted,
    onUserDeleted: deletion.onUserDeleted,
    afterUserDeleted: deletion.afterUserDeleted,

    /** Runs `listener` after an admin sets a user's password (auth ends that user's sessions). */
    onPasswordReset(listener: (userId: string) => Promise<void>): void {
      passwordResetListeners.push(listener);
    },

    /** Lets the chats domain answer `GET /users/shared-{chat_id}`. Until set, every share is "not found". */
    setSharedChatOwnerResolver(resolver: SharedChatOwnerResolver): void {
      resolveSharedChatOwner = resolver;
    },

    /** One page (30) of users matching the filters, and the total number of matches. */
    async list(q: UserListQuery): Promise<UserListResponse> {
      const orderBy = q.order_by ?? 'created_at';
      const direction = q.direction ?? (q.order_by ? 'asc' : 'desc');
      const { rows, count } = await repo.page({
        query: q.query,
        groupId: q.group_id,
        role: q.role,
        orderBy,
        direction,
        offset: (q.page - 1) * USER_PAGE_SIZE,
        limit: USER_PAGE_SIZE,
      });
      return { users: rows.map(presentListItem), count };
    },

    async all(): Promise<UserListResponse> {
      const rows = await repo.all();
      return { users: rows.map(presentListItem), count: rows.length };
    },

    /**
     * Verified users whose name contains `query` or whose email is `query` (admins: contains it):
     * id and name only. A substring match on emails for everyone would be an address oracle.
     */
    async search(caller: SessionUser, query: string | undefined): Promise<{ users: Array<{ id: string; name: string }> }> {
      const rows = await repo.search(query, SEARCH_LIMIT, caller.role === 'admin' ? 'substring' : 'whole');
      return { users: rows.map((r) => ({ id: r.id, name: r.name })) };
    },

    activeUserIds(): { user_ids: string[] } {
      return { user_ids: deps.presence.activeUserIds() };
    },

    async effectivePermissions(user: SessionUser): Promise<Permissions> {
      return deps.permissions.effective(user);
    },
    async defaultPermissions(): Promise<Permissions> {
      return deps.permissions.defaults();
    },
    async setDefaultPermissions(value: Permissions): Promise<Permissions> {
      return deps.permissions.setDefaults(value);
    },

    async settings(userId: string): Promise<UserSettings> {
      return readJson<UserSettings>((await load(userId)).settings, {});
    },
    /** Replaces the whole UI settings object. */
    async replaceSettings(userId: string, settings: UserSettings): Promise<UserSettings> {
      await repo.update(userId, { settings: writeJson(settings), updated_at: clock.now() });
      return settings;
    },

    async info(userId: string): Promise<UserInfo> {
      return readJson<UserInfo>((await load(userId)).info, {});
    },
    /** Merges the given keys over the stored info. */
    async mergeInfo(userId: string, patch: UserInfo): Promise<UserInfo> {
      const next = { ...readJson<UserInfo>((await load(userId)).info, {}), ...patch };
      await repo.update(userId, { info: writeJson(next), updated_at: clock.now() });
      return next;
    },

    /** Stores an uploaded profile image after checking its bytes really are an image. */
    async uploadProfileImage(userId: string, file: UploadedFile): Promise<ProfileImageUpload> {
      if (file.bytes.length === 0) throw badRequest('The file is empty', 'FILE_NOT_IMAGE');
      const type = await (await loadFileType()).fileTypeFromBuffer(file.bytes);
      if (!type || !type.mime.startsWith('image/')) {
        throw badRequest(`The file is not an image${type ? ` (it is ${type.mime})` : ''}`, 'FILE_NOT_IMAGE');
      }
      const stored = await images.save(userId, file.bytes, type.ext);
      return { url: profileImageUrl(stored.storagePath), filename: stored.filename, storage_path: stored.storagePath };
    },

    /** A stored profile image and its real MIME type, for any verified user to see. */
    async profileImage(storagePath: string): Promise<StoredImage & { mime: string }> {
      const image = images.parse(storagePath);
      if (!(await images.exists(image))) throw notFound('Image not found', 'IMAGE_NOT_FOUND');
      const type = await (await loadFileType()).fileTypeFromFile(image.absolute);
      if (!type || !type.mime.startsWith('image/')) throw notFound('Image not found', 'IMAGE_NOT_FOUND');
      return { ...image, mime: type.mime };
    },

    /** Deletes a profile image: one's own, or anyone's for admins. A profile pointing at it falls back to the default. */
    async deleteProfileImage(caller: SessionUser, storagePath: string): Promise<{ success: boolean }> {
      const image = images.parse(storagePath);
      if (image.ownerId !== caller.id && caller.role !== 'admin') throw forbidden('You may only delete your own images', 'NOT_OWNER');
      if (!(await images.exists(image))) throw notFound('Image not found', 'IMAGE_NOT_FOUND');
      await images.remove(image);
      const owner = await repo.findById(image.ownerId);
      if (owner && owner.profile_image_url === profileImageUrl(storagePath)) {
        await repo.update(owner.id, { profile_image_url: DEFAULT_PROFILE_IMAGE_URL, updated_at: clock.now() });
      }
      return { success: true };
    },

    /** Name, picture and presence of a user, or of the owner of a shared chat (`shared-{chat_id}`). */
    async publicProfile(idOrShare: string): Promise<PublicUser> {
      let id = idOrShare;
      if (idOrShare.startsWith('shared-')) {
        const owner = await resolveSharedChatOwner(idOrShare.slice('shared-'.length));
        if (!owner) throw notFound('Shared chat not found', 'SHARED_CHAT_NOT_FOUND');
        id = owner;
      }
      const row = await load(id);
      return { name: row.name, profile_image_url: safeImageUrl(row.profile_image_url), active: deps.presence.isActive(row.id) };
    },

    async activeStatus(id: string): Promise<{ active: boolean }> {
      const row = await load(id);
      return { active: deps.presence.isActive(row.id) };
    },

    async groupsOf(userId: string): Promise<Group[]> {
      return deps.groupsOf(userId);
    },

    /**
     * Admin update. Nobody but the primary admin may change the primary admin, whose role stays
     * `admin`; the last admin cannot be demoted; emails stay unique.
     */
    async adminUpdate(caller: SessionUser, id: string, body: AdminUserUpdate): Promise<User> {
      const target = await load(id);
      if (isPrimaryAdmin(target) && caller.id !== target.id) {
        throw forbidden('The primary admin can only be changed by themself', 'PRIMARY_ADMIN');
      }
      if (body.role !== undefined && body.role !== target.role) {
        if (isPrimaryAdmin(target)) throw forbidden("The primary admin's role cannot be changed", 'PRIMARY_ADMIN');
        if (target.role === 'admin' && (await repo.countByRole('admin')) <= 1) {
          throw forbidden('The last admin cannot be demoted; make someone else an admin first', 'LAST_ADMIN');
        }
      }
      const emailTaken = () => badRequest('This email is already registered', 'EMAIL_TAKEN');
      if (body.email !== undefined && body.email !== target.email) {
        const other = await repo.findByEmail(body.email);
        if (other && other.id !== target.id) throw emailTaken();
      }
      const now = clock.now();
      const patch: Partial<UserRow> = { updated_at: now };
      if (body.name !== undefined) patch.name = body.name;
      if (body.email !== undefined) patch.email = body.email;
      if (body.role !== undefined) patch.role = body.role;
      if (body.profile_image_url !== undefined) patch.profile_image_url = body.profile_image_url || DEFAULT_PROFILE_IMAGE_URL;
      if (body.info) patch.info = writeJson({ ...readJson<UserInfo>(target.info, {}), ...body.info });
      const row = await onUniqueViolation(() => repo.update(id, patch), emailTaken);
      if (!row) throw userNotFound();
      // A pending account has no live connection: back to pending, its sockets close on every instance.
      if (row.role === 'pending' && target.role !== 'pending') deps.presence.disconnectUser(id);
      if (body.password) {
        await repo.setPasswordHash(id, await deps.hashPassword(body.password), now);
        for (const listener of passwordResetListeners) await listener(id);
      }
      return presentUser(row);
    },

    /**
     * Deletes a user and everything they own in one transaction (rows by ON DELETE CASCADE and
     * the registered hooks), then drops their sockets and removes their image folder and what
     * the before/after hooks clean up outside the database.
     */
    async delete(caller: SessionUser, id: string): Promise<void> {
      const target = await load(id);
      if (isPrimaryAdmin(target)) throw forbidden('The primary admin cannot be deleted', 'PRIMARY_ADMIN');
      if (target.id === caller.id) throw forbidden('You cannot delete your own account here', 'CANNOT_DELETE_SELF');
      const finishers = await deletion.prepare(id);
      const deleted = await repo.deleteInTransaction(id, (trx) => deletion.runDuring(id, trx));
      if (!deleted) throw userNotFound();
      deps.presence.disconnectUser(id);
      try {
        await images.removeAllOf(id);
      } catch (error) {
        deps.log.warn({ err: error, userId: id }, 'could not remove the profile images of a deleted user');
      }
      await deletion.runAfter(id, finishers);
      deps.log.info({ userId: id, by: caller.id }, 'user deleted');
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
