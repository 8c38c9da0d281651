import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { badRequest, payloadTooLarge } from '../platform/http/errors';

/** One file read from a multipart request. */
export interface UploadedFile {
  bytes: Buffer;
  /** The file name the client sent (not trusted; for display only). */
  filename: string;
}

/**
 * Reads the single file in multipart field `field` into memory, refusing more than `maxBytes`.
 * An oversized file is drained (not cut off mid-request) so the client reads the 413 answer.
 */
export function readSingleUpload(req: IncomingMessage, field: string, maxBytes: number): Promise<UploadedFile> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    return Promise.reject(badRequest(`Send the image as multipart/form-data in a field named '${field}'`, 'NOT_MULTIPART'));
  }
  const tooLarge = () => payloadTooLarge(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, 'FILE_TOO_LARGE');
  return new Promise<UploadedFile>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
    } catch {
      reject(badRequest('The multipart body is malformed (missing boundary?)', 'MALFORMED_MULTIPART'));
      return;
    }
    let file: UploadedFile | undefined;
    let oversized = false;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    parser.on('file', (name, stream, info) => {
      // A truncated body errors the part stream too; without a listener that would crash the process.
      stream.on('error', () => fail(badRequest('The multipart body is malformed or was cut off', 'MALFORMED_MULTIPART')));
      if (name !== field || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (data: Buffer) => chunks.push(data));
      stream.on('limit', () => {
        oversized = true;
      });
      stream.on('end', () => {
        file = { bytes: Buffer.concat(chunks), filename: info.filename ?? '' };
      });
    });
    parser.on('error', () => fail(badRequest('The multipart body is malformed or was cut off', 'MALFORMED_MULTIPART')));
    parser.on('close', () => {
      if (failed) return;
      if (oversized) return reject(tooLarge());
      if (!file) return reject(badRequest(`Field '${field}' is required (a file)`, 'FILE_REQUIRED'));
      resolve(file);
    });
    req.on('error', () => fail(badRequest('The upload was interrupted', 'REQUEST_ABORTED')));
    req.pipe(parser);
  });
}
