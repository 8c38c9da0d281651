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
 * A change that lands while a list is being read makes that read uncacheable.
 */
export function createFileLists(read: (knowledgeId: string) => Promise<KnowledgeFileRow[]>) {
  const lists = new Map<string, Map<string, KnowledgeFile>>();
  const changedWhileLoading = new Set<string>();
  const loading = new Map<string, number>();

  function touch(knowledgeId: string): Map<string, KnowledgeFile> | undefined {
    if (loading.has(knowledgeId)) changedWhileLoading.add(knowledgeId);
    const list = lists.get(knowledgeId);
    if (!list) return undefined;
    lists.delete(knowledgeId);
    lists.set(knowledgeId, list);
    return list;
  }

  return {
    /** A base's files, oldest first. */
    async get(knowledgeId: string): Promise<KnowledgeFile[]> {
      const cached = touch(knowledgeId);
      if (cached) return [...cached.values()];
      loading.set(knowledgeId, (loading.get(knowledgeId) ?? 0) + 1);
      let rows: KnowledgeFileRow[];
      try {
        rows = await read(knowledgeId);
      } finally {
        const left = loading.get(knowledgeId)! - 1;
        if (left === 0) loading.delete(knowledgeId);
        else loading.set(knowledgeId, left);
      }
      const files = rows.map(presentFileRow);
      if (changedWhileLoading.has(knowledgeId)) {
        if (!loading.has(knowledgeId)) changedWhileLoading.delete(knowledgeId);
      } else if (!lists.has(knowledgeId)) {
        lists.set(knowledgeId, new Map(files.map((f) => [f.id, f])));
        if (lists.size > MAX_BASES) lists.delete(lists.keys().next().value!);
      }
      return files;
    },

    /** A file added (or re-added after failing): a new one goes last, a known one keeps its place. */
    put(knowledgeId: string, file: KnowledgeFile): void {
      const list = touch(knowledgeId);
      if (!list) return;
      const known = list.get(file.id);
      list.set(file.id, known ? { ...file, created_at: known.created_at } : file);
    },

    /** A file's ingestion state changed. */
    status(knowledgeId: string, fileId: string, status: FileStatus, error?: string | null): void {
      const list = touch(knowledgeId);
      const file = list?.get(fileId);
      if (!list || !file) return;
      const { error: _old, ...rest } = file;
      list.set(fileId, { ...rest, status, ...(error ? { error } : {}) });
    },

    /** A file left a base. */
    remove(knowledgeId: string, fileId: string): void {
      touch(knowledgeId)?.delete(fileId);
    },

    /** A file is gone everywhere (deleted). */
    removeEverywhere(fileId: string): void {
      for (const knowledgeId of [...lists.keys()]) if (lists.get(knowledgeId)!.has(fileId)) touch(knowledgeId)!.delete(fileId);
      for (const knowledgeId of loading.keys()) changedWhileLoading.add(knowledgeId);
    },

    /** Forgets a base's list (deleted, or changed in ways best re-read: by another instance too), every list when no id is given. */
    forget(knowledgeId?: string): void {
      for (const id of knowledgeId === undefined ? [...lists.keys(), ...loading.keys()] : [knowledgeId]) {
        touch(id);
        lists.delete(id);
      }
    },
  };
}
export type FileLists = ReturnType<typeof createFileLists>;
