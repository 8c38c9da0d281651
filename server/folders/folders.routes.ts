import { z } from 'zod';
import { CreateFolderRequest, Folder, UpdateFolderRequest } from '../contracts/folders';
import { route, type Routes } from '../platform/http/route';
import type { FoldersService } from './folders.service';

/** Chat folders, on Open WebUI's paths. Mounted at `/api/v1/folders`. */
export function foldersRoutes(folders: FoldersService): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'user', summary: 'The caller’s folders', response: z.array(Folder) }, ({ user }) => folders.list(user.id)),
    route({ method: 'post', path: '/', guard: 'user', body: CreateFolderRequest, summary: 'Create a folder', response: Folder }, ({ user, body }) => folders.create(user.id, body)),
    route({ method: 'get', path: '/:id', guard: 'user', summary: 'A folder', response: Folder }, ({ user, params }) => folders.get(user.id, params.id)),
    route(
      {
        method: 'post',
        path: '/:id/update',
        guard: 'user',
        authorize: async ({ user, params }) => {
          await folders.get(user.id, params.id);
        },
        body: UpdateFolderRequest,
        summary: 'Rename or move a folder',
        response: Folder,
      },
      ({ user, params, body }) => folders.update(user.id, params.id, body),
    ),
    route({ method: 'delete', path: '/:id', guard: 'user', summary: 'Delete a folder', response: z.boolean() }, async ({ user, params }) => {
      await folders.delete(user.id, params.id);
      return true;
    }),
  ];
}
