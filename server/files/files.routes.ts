import { StoredFile } from '../contracts/files';
import { route, type Routes } from '../platform/http/route';
import { presentStoredFile } from './files.present';
import type { FilesService } from './files.service';
import { sendStoredFile } from './send-file';

/** Stored file metadata and download. Mounted at `/api/v1/files`. */
export function filesRoutes(files: FilesService): Routes {
  return [
    route({ method: 'get', path: '/:id', guard: 'user', summary: 'An uploaded file’s details', response: StoredFile }, async ({ user, params }) =>
      presentStoredFile(await files.requireReadable(user, params.id)),
    ),
    route({ method: 'get', path: '/:id/content', guard: 'user', produces: 'binary', summary: 'An uploaded file’s bytes' }, async ({ res, user, params }) => {
      sendStoredFile(res, await files.requireReadable(user, params.id), files);
    }),
  ];
}
