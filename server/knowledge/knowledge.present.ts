import type { AccessControl } from '../contracts/access';
import type { FileStatus, KnowledgeDetail, KnowledgeSummary } from '../contracts/knowledge';
import { readJson } from '../platform/db/json';
import type { KnowledgeFileRow, KnowledgeRow } from './knowledge.repo';

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

/** Row and its files (joined with their metadata) → single-item shape. */
export function presentDetail(row: KnowledgeRow, entries: KnowledgeFileRow[]): KnowledgeDetail {
  return {
    ...presentSummary(row, entries.length),
    files: entries.map((e) => ({
      id: e.file_id,
      name: e.filename ?? '',
      status: e.status as FileStatus,
      ...(e.error ? { error: e.error } : {}),
      size: e.size ?? 0,
      mime_type: e.mime_type ?? '',
      created_at: e.created_at,
    })),
  };
}
