import type { Response } from 'express';
import type { FileRow } from './files.repo';
import type { FilesService } from './files.service';

/** Quotes a file name for Content-Disposition (ASCII fallback plus RFC 5987 UTF-8 form). */
function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

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
