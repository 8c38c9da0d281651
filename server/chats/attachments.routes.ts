import { Router } from 'express';
import { authOf, requireUser } from '../session';
import { presentAttachment, receiveUploads, type FilesService } from '../files';
import { forbidden } from '../platform/http/errors';
import type { PermissionsService } from '../permissions';

/** Attachment upload and deletion (section 4.5). Mounted at `/api/v1/chats` before the chat routes. */
export function attachmentRoutes(deps: { files: FilesService; permissions: PermissionsService }): Router {
  const { files, permissions } = deps;
  const router = Router();

  router.post('/attachment/upload', requireUser, async (req, res) => {
    const { user } = authOf(req);
    if (user.role !== 'admin' && !(await permissions.effective(user)).chat.file_upload) {
      req.resume();
      throw forbidden('You are not allowed to upload files', 'FILE_UPLOAD_FORBIDDEN');
    }
    const rows = await receiveUploads(req, files, { userId: user.id, purpose: 'chat' });
    res.json(rows.map(presentAttachment));
  });

  router.delete('/attachment/:file_id', requireUser, async (req, res) => {
    const row = await files.requireOwned(authOf(req).user, String(req.params.file_id));
    await files.delete(row);
    res.json(true);
  });

  return router;
}
