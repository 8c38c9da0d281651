import type { FileStatus, KnowledgeFile } from '../contracts/knowledge';
import type { KnowledgeFileRow } from './knowledge.repo';

/** Bases whose file list is kept (least recently used go first). */
const MAX_BASES = 64;

/** A joined row → the wire shape of a file entry. */
export function presentFileRow(row: KnowledgeFileRow): KnowledgeFile {
  return {
    id: row.file_id,
    name: row.filename ?? '',
    status: row.status as FileStatus,
    ...(row.error ? { error: row.error } : {}),
    size: row.size ?? 0,
    mime_type: row.mime_type ?? '',
    created_at: row.created_at,
  };
}

/**
 * The file lists of recently used knowledge bases as the API shows them, read from SQLite once
 * and then kept current by the code that changes them (add, remove, ingestion states, deleted
 * files, deleted bases and users), so answering `file/add` does not re-read the whole list.
 * Order is SQLite's (`created_at`, then insertion): new entries go last, changes keep places.
 * A change that lands while a list is being read is replayed onto what the read returns.
 */
export function createFileLists(read: (knowledgeId: string) => Promise<KnowledgeFileRow[]>) {
  const lists = new Map<string, Map<string, KnowledgeFile>>();
  /**
   * Changes that landed while a base's list was being read, replayed onto what the read returned
   * (each is idempotent, so it does not matter whether the read saw it); `null` after a forget.
   */
  const changedWhileLoading = new Map<string, Array<(list: Map<string, KnowledgeFile>) => void> | null>();
  const loading = new Map<string, number>();

  function touch(knowledgeId: string): Map<string, KnowledgeFile> | undefined {
    const list = lists.get(knowledgeId);
    if (!list) return undefined;
    lists.delete(knowledgeId);
    lists.set(knowledgeId, list);
    return list;
  }

  /** Applies a change to the cached list, and remembers it for a read under way. */
  function change(knowledgeId: string, apply: (list: Map<string, KnowledgeFile>) => void): void {
    if (loading.has(knowledgeId)) {
      const log = changedWhileLoading.get(knowledgeId);
      if (log !== null) {
        if (log) log.push(apply);
        else changedWhileLoading.set(knowledgeId, [apply]);
      }
    }
    const list = touch(knowledgeId);
    if (list) apply(list);
  }

  const put = (file: KnowledgeFile) => (list: Map<string, KnowledgeFile>) => {
    const known = list.get(file.id);
    list.set(file.id, known ? { ...file, created_at: known.created_at } : file);
  };
  const status = (fileId: string, next: FileStatus, error?: string | null) => (list: Map<string, KnowledgeFile>) => {
    const file = list.get(fileId);
    if (!file) return;
    const { error: _old, ...rest } = file;
    list.set(fileId, { ...rest, status: next, ...(error ? { error } : {}) });
  };
  const remove = (fileId: string) => (list: Map<string, KnowledgeFile>) => void list.delete(fileId);

  return {
    /** A base's files, oldest first. */
    async get(knowledgeId: string): Promise<KnowledgeFile[]> {
      const cached = touch(knowledgeId);
      if (cached) return [...cached.values()];
      loading.set(knowledgeId, (loading.get(knowledgeId) ?? 0) + 1);
      let rows: KnowledgeFileRow[];
      let changes: Array<(list: Map<string, KnowledgeFile>) => void> | null | undefined;
      try {
        rows = await read(knowledgeId);
      } finally {
        const left = loading.get(knowledgeId)! - 1;
        changes = changedWhileLoading.get(knowledgeId);
        if (left === 0) {
          loading.delete(knowledgeId);
          changedWhileLoading.delete(knowledgeId);
        } else loading.set(knowledgeId, left);
      }
      const list = new Map(rows.map((row) => [row.file_id, presentFileRow(row)]));
      // Another read may have filled the cache meanwhile; a forgotten base is not cached.
      if (changes !== null && !lists.has(knowledgeId)) {
        for (const apply of changes ?? []) apply(list);
        lists.set(knowledgeId, list);
        if (lists.size > MAX_BASES) lists.delete(lists.keys().next().value!);
        return [...list.values()];
      }
      return rows.map(presentFileRow);
    },

    /** A file added (or re-added after failing): a new one goes last, a known one keeps its place. */
    put(knowledgeId: string, file: KnowledgeFile): void {
      change(knowledgeId, put(file));
    },

    /** A file's ingestion state changed. */
    status(knowledgeId: string, fileId: string, next: FileStatus, error?: string | null): void {
      change(knowledgeId, status(fileId, next, error));
    },

    /** A file left a base. */
    remove(knowledgeId: string, fileId: string): void {
      change(knowledgeId, remove(fileId));
    },

    /** A file is gone everywhere (deleted). */
    removeEverywhere(fileId: string): void {
      for (const knowledgeId of new Set([...lists.keys(), ...loading.keys()])) if (loading.has(knowledgeId) || lists.get(knowledgeId)!.has(fileId)) change(knowledgeId, remove(fileId));
    },

    /** Forgets a base's list (deleted, or changed in ways best re-read: by another instance too), every list when no id is given. */
    forget(knowledgeId?: string): void {
      for (const id of knowledgeId === undefined ? new Set([...lists.keys(), ...loading.keys()]) : [knowledgeId]) {
        if (loading.has(id)) changedWhileLoading.set(id, null);
        lists.delete(id);
      }
    },
  };
}
export type FileLists = ReturnType<typeof createFileLists>;
