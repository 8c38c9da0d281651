import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { badRequest } from '../platform/http/errors';
import type { FileRow } from './files.repo';
import type { FilesService, IncomingFile } from './files.service';

/** Form fields that carry files. */
const FILE_FIELDS = new Set(['files', 'file']);
/** Most files in one request. */
const MAX_FILES = 20;

/**
 * Streams every file of a multipart request (fields `files` or `file`) to disk through the files
 * service. All or nothing: when one file is refused, the ones already stored are removed.
 */
export async function receiveUploads(
  req: IncomingMessage,
  files: FilesService,
  base: Omit<IncomingFile, 'filename' | 'stream'>,
): Promise<FileRow[]> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: MAX_FILES, fields: 50, fieldSize: 64 * 1024, parts: 100 } });
  } catch {
    throw badRequest('Expected a multipart/form-data body with files in the `files` field', 'NOT_MULTIPART');
  }

  const stored: Promise<FileRow>[] = [];
  let failure: unknown;
  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      failure ??= error;
      req.unpipe(parser);
      req.resume(); // discard the rest of the body
      parser.destroy(); // ends a file still streaming, so its write settles
      reject(failure);
    };
    parser.on('file', (field, stream, info) => {
      if (failure !== undefined || !FILE_FIELDS.has(field)) {
        stream.resume();
        return;
      }
      const row = files.create({ ...base, filename: info.filename ?? 'file', stream });
      row.catch(fail);
      stored.push(row);
    });
    parser.on('filesLimit', () => fail(badRequest(`At most ${MAX_FILES} files may be uploaded at once`, 'TOO_MANY_FILES')));
    parser.on('error', (error: Error) => fail(badRequest(`The upload could not be read: ${error.message}`, 'MALFORMED_UPLOAD')));
    parser.on('close', () => resolve());
    req.on('aborted', () => fail(badRequest('The upload was aborted by the client', 'REQUEST_ABORTED')));
  });
  req.pipe(parser);

  await done.catch(() => undefined);
  const settled = await Promise.allSettled(stored);
  const rows = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const firstError = failure ?? settled.find((s) => s.status === 'rejected')?.reason;
  if (firstError !== undefined) {
    await Promise.all(rows.map((row) => files.delete(row)));
    throw firstError;
  }
  if (rows.length === 0) throw badRequest('No file was sent: put the files in the `files` form field', 'NO_FILES');
  return rows;
}
