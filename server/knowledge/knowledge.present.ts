import type { AccessControl } from '../contracts/access';
import type { FileStatus, KnowledgeDetail, KnowledgeFile, KnowledgeSummary } from '../contracts/knowledge';
import { readJson } from '../platform/db/json';
import type { FileRow } from '../files';
import type { CollectionFileRow } from '../retrieval';
import type { KnowledgeRow } from './knowledge.repo';

/** The access list of a row (NULL = public read). */
export function accessOf(row: KnowledgeRow): AccessControl {
  return row.access_control === null ? null : readJson<AccessControl>(row.access_control, {});
}

/** Row → list/create shape. */
export function presentSummary(row: KnowledgeRow, fileCount: number): KnowledgeSummary {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    description: row.description,
    access_control: accessOf(row),
    file_count: fileCount,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A file entry with its ingestion state. */
export function presentFile(entry: CollectionFileRow, file: FileRow | undefined): KnowledgeFile {
  return {
    id: entry.file_id,
    name: file?.filename ?? '',
    status: entry.status as FileStatus,
    ...(entry.error ? { error: entry.error } : {}),
    size: file?.size ?? 0,
    mime_type: file?.mime_type ?? '',
    created_at: entry.created_at,
  };
}

/** Row and files → single-item shape. */
export function presentDetail(row: KnowledgeRow, entries: CollectionFileRow[], files: FileRow[]): KnowledgeDetail {
  const byId = new Map(files.map((f) => [f.id, f]));
  return { ...presentSummary(row, entries.length), files: entries.map((e) => presentFile(e, byId.get(e.file_id))) };
}
