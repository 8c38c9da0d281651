import { z } from 'zod';
import { AttachmentFile } from '../contracts/files';
import { presentAttachment, receiveUploads, type FilesService } from '../files';
import { forbidden } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';

/** Attachment upload and deletion (section 4.5). Mounted at `/api/v1/chats` before the chat routes. */
export function attachmentRoutes(files: FilesService): Routes {
  return [
    route(
      {
        method: 'post',
        path: '/attachment/upload',
        guard: 'user',
        permission: 'chat.file_upload',
        refused: () => forbidden('You are not allowed to upload files', 'FILE_UPLOAD_FORBIDDEN'),
        consumes: 'multipart',
        summary: 'Upload chat attachments',
        response: z.array(AttachmentFile),
      },
      async ({ req, user }) => (await receiveUploads(req, files, { userId: user.id, purpose: 'chat' })).map(presentAttachment),
    ),
    route({ method: 'delete', path: '/attachment/:file_id', guard: 'user', summary: 'Delete a chat attachment', response: z.boolean() }, async ({ user, params }) => {
      await files.delete(await files.requireOwned(user, params.file_id));
      return true;
    }),
  ];
}
