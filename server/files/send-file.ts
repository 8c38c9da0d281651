import type { Response } from 'express';
import { contentDisposition } from '../platform/http/download';
import type { FileRow } from './files.repo';
import type { FilesService } from './files.service';

/**
 * Answers a stored file's bytes: images (not SVG) inline, everything else as a download, always
 * under a sandboxing content security policy so an uploaded page cannot run as the service.
 */
export function sendStoredFile(res: Response, row: FileRow, files: Pick<FilesService, 'openStream'>, headers: Record<string, string> = {}): void {
  const inline = row.mime_type.startsWith('image/') && row.mime_type !== 'image/svg+xml';
  res.set({
    'content-type': row.mime_type,
    'content-length': String(row.size),
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', row.filename),
    'content-security-policy': "default-src 'none'; sandbox",
    ...headers,
  });
  const stream = files.openStream(row.id);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
