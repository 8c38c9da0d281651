import type { CreateFolderRequest, Folder, UpdateFolderRequest } from '../contracts/folders';
import type { Clock } from '../platform/clock';
import { badRequest, forbidden, notFound } from '../platform/http/errors';
import { newId } from '../platform/ids';
import type { FolderRow, FoldersRepo } from './folders.repo';

/** Row → wire shape. */
export function presentFolder(row: FolderRow): Folder {
  return {
    id: row.id,
    parent_id: row.parent_id,
    user_id: row.user_id,
    name: row.name,
    is_expanded: Boolean(row.is_expanded),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const folderNotFound = () => notFound('Folder not found', 'FOLDER_NOT_FOUND');
const nameTaken = (name: string) => badRequest(`A folder named '${name}' already exists here`, 'FOLDER_EXISTS');

/** Nested chat folders. Each user sees only their own; names are unique among siblings. */
export function createFoldersService(deps: { repo: FoldersRepo; clock: Clock }) {
  const { repo, clock } = deps;

  async function own(userId: string, id: string): Promise<FolderRow> {
    const row = await repo.findById(id);
    if (!row) throw folderNotFound();
    if (row.user_id !== userId) throw forbidden('You do not have access to this folder', 'FOLDER_FORBIDDEN');
    return row;
  }

  async function checkName(userId: string, parentId: string | null, name: string, exceptId?: string): Promise<void> {
    const siblings = (await repo.listOf(userId)).filter((f) => f.parent_id === parentId && f.id !== exceptId);
    if (siblings.some((f) => f.name.toLowerCase() === name.toLowerCase())) throw nameTaken(name);
  }

  return {
    async list(userId: string): Promise<Folder[]> {
      return (await repo.listOf(userId)).map(presentFolder);
    },

    async get(userId: string, id: string): Promise<Folder> {
      return presentFolder(await own(userId, id));
    },

    async create(userId: string, body: CreateFolderRequest): Promise<Folder> {
      const parentId = body.parent_id ?? null;
      if (parentId !== null) await own(userId, parentId).catch(() => Promise.reject(badRequest(`Field 'parent_id': no folder ${parentId}`, 'FOLDER_NOT_FOUND')));
      await checkName(userId, parentId, body.name);
      const now = clock.now();
      const row: FolderRow = { id: newId(), user_id: userId, parent_id: parentId, name: body.name, is_expanded: false, created_at: now, updated_at: now };
      await repo.insert(row);
      return presentFolder(row);
    },

    /** Renames, moves (never into itself or below itself) or expands a folder. */
    async update(userId: string, id: string, body: UpdateFolderRequest): Promise<Folder> {
      const row = await own(userId, id);
      const patch: Partial<FolderRow> = { updated_at: clock.now() };
      const parentId = body.parent_id === undefined ? row.parent_id : body.parent_id;
      if (body.parent_id !== undefined && body.parent_id !== null) {
        const all = await repo.listOf(userId);
        const byId = new Map(all.map((f) => [f.id, f]));
        if (!byId.has(body.parent_id)) throw badRequest(`Field 'parent_id': no folder ${body.parent_id}`, 'FOLDER_NOT_FOUND');
        for (let at: string | null = body.parent_id; at !== null; at = byId.get(at)?.parent_id ?? null) {
          if (at === id) throw badRequest('A folder cannot move into itself or one of its subfolders', 'FOLDER_CYCLE');
        }
      }
      if (body.parent_id !== undefined) patch.parent_id = body.parent_id;
      if (body.name !== undefined) patch.name = body.name;
      if (body.name !== undefined || body.parent_id !== undefined) await checkName(userId, parentId, body.name ?? row.name, id);
      if (body.is_expanded !== undefined) patch.is_expanded = body.is_expanded;
      await repo.update(id, patch);
      return presentFolder({ ...row, ...patch });
    },

    /** Deletes a folder and its subfolders; their chats stay, out of any folder. */
    async delete(userId: string, id: string): Promise<void> {
      await own(userId, id);
      const all = await repo.listOf(userId);
      const ids = new Set([id]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const f of all) {
          if (f.parent_id !== null && ids.has(f.parent_id) && !ids.has(f.id)) {
            ids.add(f.id);
            grew = true;
          }
        }
      }
      await repo.deleteTree(userId, [...ids]);
    },

    /** Throws 400 unless the folder exists and is the user's (for filing chats). */
    async requireOwnForFiling(userId: string, id: string): Promise<void> {
      const row = await repo.findById(id);
      if (!row || row.user_id !== userId) throw badRequest(`Field 'folder_id': no folder ${id}`, 'FOLDER_NOT_FOUND');
    },

    /** Names from the top level down to a user's folder ([] when there is none). */
    async pathOf(userId: string, id: string | null): Promise<string[]> {
      if (id === null) return [];
      const byId = new Map((await repo.listOf(userId)).map((f) => [f.id, f]));
      const names: string[] = [];
      for (let at = byId.get(id); at && names.length < 100; at = at.parent_id === null ? undefined : byId.get(at.parent_id)) names.unshift(at.name);
      return names;
    },

    /**
     * The user's folder at this path of names, creating the missing ones (an import puts chats
     * back in their folders). Names match case-insensitively; null for an empty path.
     */
    async ensurePath(userId: string, path: readonly string[]): Promise<string | null> {
      const names = path.map((n) => n.trim().slice(0, 200)).filter(Boolean).slice(0, 20);
      if (names.length === 0) return null;
      const all = await repo.listOf(userId);
      let parentId: string | null = null;
      for (const name of names) {
        const found = all.find((f) => f.parent_id === parentId && f.name.toLowerCase() === name.toLowerCase());
        if (found) {
          parentId = found.id;
          continue;
        }
        const now = clock.now();
        const row: FolderRow = { id: newId(), user_id: userId, parent_id: parentId, name, is_expanded: false, created_at: now, updated_at: now };
        await repo.insert(row);
        all.push(row);
        parentId = row.id;
      }
      return parentId;
    },

    /** The name of a user's folder, or null. */
    async nameOf(userId: string, id: string | null): Promise<string | null> {
      if (id === null) return null;
      const row = await repo.findById(id);
      return row && row.user_id === userId ? row.name : null;
    },
  };
}
export type FoldersService = ReturnType<typeof createFoldersService>;
