import { StoredFile } from '../contracts/files';
import { route, type Routes } from '../platform/http/route';
import { presentStoredFile } from './files.present';
import type { FilesService } from './files.service';

/** Quotes a file name for Content-Disposition (ASCII fallback plus RFC 5987 UTF-8 form). */
function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Stored file metadata and download. Mounted at `/api/v1/files`. */
export function filesRoutes(files: FilesService): Routes {
  return [
    route({ method: 'get', path: '/:id', guard: 'user', summary: 'An uploaded file’s details', response: StoredFile }, async ({ user, params }) =>
      presentStoredFile(await files.requireReadable(user, params.id)),
    ),
    route({ method: 'get', path: '/:id/content', guard: 'user', produces: 'binary', summary: 'An uploaded file’s bytes' }, async ({ res, user, params }) => {
      const row = await files.requireReadable(user, params.id);
      const inline = row.mime_type.startsWith('image/') && row.mime_type !== 'image/svg+xml';
      res.set({
        'content-type': row.mime_type,
        'content-length': String(row.size),
        'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', row.filename),
        'content-security-policy': "default-src 'none'; sandbox",
      });
      const stream = files.openStream(row.id);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    }),
  ];
}
