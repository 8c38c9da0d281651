import type { Role } from '../contracts/auth';
import type { Memory, MemoryQueryResult } from '../contracts/memories';
import type { Clock } from '../platform/clock';
import { forbidden, notFound } from '../platform/http/errors';
import { newOrderedId } from '../platform/ids';
import type { PermissionsService } from '../permissions';
import { blobOf } from '../retrieval';
import type { MemoriesRepo, MemoryRow } from './memories.repo';
import { MEMORY_THRESHOLD, type MemoryIndexes, type RecalledMemory } from './memory-indexes';

/** The caller as memory rules see them. */
export interface MemoryCaller {
  id: string;
  role: Role;
}

const memoryNotFound = () => notFound('Memory not found', 'MEMORY_NOT_FOUND');
/** The refusal without the `features.memories` permission. */
export const memoriesForbidden = () => forbidden("You need the permission 'features.memories' to use memories", 'MEMORIES_FORBIDDEN');

function present(row: Pick<MemoryRow, 'id' | 'user_id' | 'content' | 'created_at' | 'updated_at'>): Memory {
  return { id: row.id, user_id: row.user_id, content: row.content, created_at: row.created_at, updated_at: row.updated_at };
}

/**
 * Memories: what a person keeps about themselves for their chats. Every read and write is of the
 * caller's own memories (no role reads another's, admins included); using them needs
 * `features.memories`.
 */
export function createMemoriesService(deps: { repo: MemoriesRepo; indexes: MemoryIndexes; permissions: PermissionsService; clock: Clock }) {
  const { repo, indexes, permissions, clock } = deps;

  return {
    /** Refuses (403) without `features.memories`. */
    async mayUse(caller: MemoryCaller): Promise<void> {
      if (!(await permissions.allows(caller, 'features.memories'))) throw memoriesForbidden();
    },

    /** The caller's memories, oldest first. */
    async list(caller: MemoryCaller): Promise<Memory[]> {
      return (await repo.ofUser(caller.id)).map(present);
    },

    /** Keeps a memory, embedded now so recall needs no embedding per memory. */
    async add(caller: MemoryCaller, content: string): Promise<Memory> {
      const embedded = await indexes.embed(content);
      const now = clock.now();
      const row: MemoryRow = { id: newOrderedId(), user_id: caller.id, content, embedding: embedded ? blobOf(embedded.vector) : null, model: embedded?.model ?? null, created_at: now, updated_at: now };
      await repo.insert(row);
      await indexes.put(row, embedded);
      return present(row);
    },

    async update(caller: MemoryCaller, id: string, content: string): Promise<Memory> {
      const row = await repo.find(caller.id, id);
      if (!row) throw memoryNotFound();
      const embedded = await indexes.embed(content);
      const change = { content, embedding: embedded ? blobOf(embedded.vector) : null, model: embedded?.model ?? null, updated_at: clock.now() };
      if (!(await repo.update(caller.id, id, change))) throw memoryNotFound();
      const saved = { ...row, ...change };
      await indexes.put(saved, embedded);
      return present(saved);
    },

    async delete(caller: MemoryCaller, id: string): Promise<void> {
      if (!(await repo.delete(caller.id, id))) throw memoryNotFound();
      await indexes.remove(caller.id, id);
    },

    /** Forgets every memory of the caller. */
    async deleteAll(caller: MemoryCaller): Promise<void> {
      await repo.deleteAll(caller.id);
      indexes.forget(caller.id);
    },

    /** The caller's memories closest to `content` (hybrid search), in Open WebUI's result shape. */
    async query(caller: MemoryCaller, content: string, k: number): Promise<MemoryQueryResult> {
      const found = await indexes.search(caller.id, content, k);
      return {
        ids: [found.map((m) => m.id)],
        documents: [found.map((m) => m.content)],
        metadatas: [found.map((m) => ({ created_at: m.created_at, updated_at: m.updated_at }))],
        distances: [found.map((m) => m.score)],
      };
    },

    /** The memories relevant enough to join an answer about `text` (at most `k`). */
    async recall(caller: MemoryCaller, text: string, k = 5, signal?: AbortSignal): Promise<RecalledMemory[]> {
      return indexes.search(caller.id, text, k, MEMORY_THRESHOLD, signal);
    },

    /** The text of every memory of the caller (what suggestions must not repeat). */
    async contents(caller: MemoryCaller): Promise<string[]> {
      return (await repo.ofUser(caller.id)).map((r) => r.content);
    },
  };
}
export type MemoriesService = ReturnType<typeof createMemoriesService>;
