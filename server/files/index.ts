export { createFilesRepo, type FilesRepo, type FileRow } from './files.repo';
export { createFilesService, type FilesService, type FileCaller, type IncomingFile, type FileDeletedHook, type FileUsageCheck } from './files.service';
export { receiveUploads } from './upload';
export { presentAttachment, presentStoredFile, fileContentUrl } from './files.present';
export { filesRoutes } from './files.routes';
export { sendStoredFile } from './send-file';
export { fileNotFound, fileForbidden } from './file-errors';
