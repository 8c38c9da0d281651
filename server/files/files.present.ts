import type { AttachmentFile, StoredFile } from '../contracts/files';
import type { FileRow } from './files.repo';

/** Where the owner downloads a file. */
export function fileContentUrl(id: string): string {
  return `/api/v1/files/${encodeURIComponent(id)}/content`;
}

/** Row → attachment shape of section 2. */
export function presentAttachment(row: FileRow): AttachmentFile {
  return { id: row.id, filename: row.filename, size: row.size, mime_type: row.mime_type, url: fileContentUrl(row.id) };
}

/** Row → full file metadata. */
export function presentStoredFile(row: FileRow): StoredFile {
  return {
    ...presentAttachment(row),
    user_id: row.user_id,
    hash: row.hash,
    purpose: row.purpose,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
