import { z } from 'zod';
import { KnowledgeCreate, KnowledgeDetail, KnowledgeFilePreview, KnowledgeFileRequest, KnowledgeSummary, KnowledgeUpdate } from '../contracts/knowledge';
import type { FilesService } from '../files';
import { contentDisposition, uniqueEntryNames } from '../platform/http/download';
import { route, type RouteUser, type Routes } from '../platform/http/route';
import { knowledgeCreateForbidden, type KnowledgeService } from './knowledge.service';
import { loadYazl } from '../platform/lazy-libraries';

/** Section 4.6 (without the graph endpoints). Mounted at `/api/knowledge` and `/api/v1/knowledge`. */
export function knowledgeRoutes(deps: { knowledge: KnowledgeService; files: FilesService }): Routes {
  const { knowledge, files } = deps;
  // A base the caller cannot see is 404 before its body is validated (DESIGN "Decisions").
  const visible = ({ user, params }: { user: RouteUser; params: { id: string } }) => knowledge.requireVisible(user, params.id);

  return [
    route({ method: 'get', path: '/', guard: 'user', summary: 'Knowledge bases the caller may read', response: z.array(KnowledgeSummary) }, ({ user }) => knowledge.list(user)),
    route(
      {
        method: 'post',
        path: '/create',
        guard: 'user',
        permission: 'workspace.knowledge',
        refused: knowledgeCreateForbidden,
        body: KnowledgeCreate,
        summary: 'Create a knowledge base',
        response: KnowledgeSummary,
      },
      ({ user, body }) => knowledge.create(user, body),
    ),
    route({ method: 'get', path: '/:id', guard: 'user', summary: 'A knowledge base with its files', response: KnowledgeDetail }, ({ user, params }) => knowledge.get(user, params.id)),
    route(
      {
        method: 'post',
        path: '/:id/update',
        guard: 'user',
        authorize: visible,
        body: KnowledgeUpdate,
        summary: 'Rename, describe or share a knowledge base, or change its language (re-indexes it)',
        response: KnowledgeDetail,
      },
      ({ user, params, body }) => knowledge.update(user, params.id, body),
    ),
    route({ method: 'delete', path: '/:id/delete', guard: 'user', summary: 'Delete a knowledge base', response: z.object({ success: z.boolean() }) }, async ({ user, params }) => {
      await knowledge.delete(user, params.id);
      return { success: true };
    }),
    route(
      {
        method: 'post',
        path: '/:id/file/add',
        guard: 'user',
        authorize: visible,
        body: KnowledgeFileRequest,
        summary: 'Add an uploaded file to a knowledge base (ingested in the background)',
        response: KnowledgeDetail,
      },
      ({ user, params, body, authorized }) => knowledge.addFile(user, params.id, body.file_id, authorized),
    ),
    route({ method: 'get', path: '/:id/file/:file_id/preview', guard: 'user', summary: 'A file’s extracted text and its chunks', response: KnowledgeFilePreview }, ({ user, params }) =>
      knowledge.filePreview(user, params.id, params.file_id),
    ),
    route(
      { method: 'post', path: '/:id/file/remove', guard: 'user', authorize: visible, body: KnowledgeFileRequest, summary: 'Remove a file from a knowledge base', response: KnowledgeDetail },
      ({ user, params, body }) => knowledge.removeFile(user, params.id, body.file_id),
    ),
    route({ method: 'get', path: '/:id/export', guard: 'user', produces: 'zip', summary: 'Download a knowledge base’s files as a ZIP' }, async ({ res, user, params }) => {
      const { name, files: rows } = await knowledge.exportFiles(user, params.id);
      const { ZipFile } = await loadYazl();
      const zip = new ZipFile();
      const names = uniqueEntryNames(rows.map((f) => f.filename));
      rows.forEach((file, i) => zip.addReadStream(files.openStream(file.id), names[i]!, { mtime: new Date(file.created_at * 1000), size: file.size }));
      zip.end();
      res.set({ 'content-type': 'application/zip', 'content-disposition': contentDisposition('attachment', `${name}.zip`) });
      zip.outputStream.on('error', () => res.destroy());
      zip.outputStream.pipe(res);
    }),
  ];
}
