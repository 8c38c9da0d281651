import type { AccessControl } from '../contracts/access';
import type { KnowledgeDetail, KnowledgeFile, KnowledgeSummary } from '../contracts/knowledge';
import type { AnalysisLanguage } from '../contracts/knowledge';
import { readJson } from '../platform/db/json';
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

/** Row and its files → single-item shape; `file_count` leaves out files that failed to ingest (they are still listed). */
export function presentDetail(row: KnowledgeRow, files: KnowledgeFile[], language: { language: AnalysisLanguage | null; reindexing: number | null } = { language: null, reindexing: null }): KnowledgeDetail {
  return { ...presentSummary(row, files.filter((f) => f.status !== 'failed').length), files, ...language };
}
