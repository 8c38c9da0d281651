import { HttpError, badRequest, payloadTooLarge } from '../platform/http/errors';

/** 413: a file is larger than the configured limit. */
export const fileTooLarge = (filename: string, maxBytes: number) =>
  payloadTooLarge(`File '${filename}' is larger than the ${formatBytes(maxBytes)} limit`, 'FILE_TOO_LARGE');

/** 400: the file's content is of a type that may not be uploaded. */
export const fileTypeNotAllowed = (filename: string, reason: string) =>
  badRequest(`File '${filename}' was refused: ${reason}`, 'FILE_TYPE_NOT_ALLOWED');

/** 400: an empty file. */
export const fileEmpty = (filename: string) => badRequest(`File '${filename}' is empty`, 'FILE_EMPTY');

/** 404 for a file id that does not exist. */
export const fileNotFound = () => new HttpError(404, 'FILE_NOT_FOUND', 'File not found');

/** 403 for someone else's file. */
export const fileForbidden = () => new HttpError(403, 'FILE_FORBIDDEN', 'You do not have access to this file');

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
