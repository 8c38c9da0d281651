import busboy from 'busboy';
import type { Request } from 'express';
import { badRequest, payloadTooLarge } from '../platform/http/errors';
import type { Recording } from './stt/openai-stt';

/** An uploaded recording and the form fields sent with it (OpenAI's: model, language, prompt, response_format…). */
export interface ReceivedRecording {
  recording: Recording;
  fields: Record<string, string>;
}

/**
 * Reads a multipart upload's `file` into memory, refusing more than `maxBytes` as it arrives
 * (the rest of the body is drained, not stored). Nothing touches the disk here.
 */
export function receiveRecording(req: Request, maxBytes: number): Promise<ReceivedRecording> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: 8192, fileSize: maxBytes } });
  } catch {
    return Promise.reject(badRequest('Expected a multipart/form-data body with the recording in the `file` field', 'NOT_MULTIPART'));
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let recording: Recording | undefined;
    let failure: Error | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || recording) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = payloadTooLarge(`The recording is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, 'AUDIO_TOO_LARGE');
      });
      stream.on('end', () => {
        recording = { bytes: Buffer.concat(chunks), filename: (info.filename || 'audio').slice(0, 200), mime: info.mimeType || 'application/octet-stream' };
      });
    });
    parser.on('error', (error: Error) => reject(badRequest(`The upload could not be read: ${error.message}`, 'MALFORMED_UPLOAD')));
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (!recording) reject(badRequest('No recording was sent: put the audio in the `file` form field', 'NO_FILES'));
      else resolve({ recording, fields });
    });
    req.pipe(parser);
  });
}

/** An AbortSignal that fires when the caller hangs up before the answer is sent. */
export function hangUpSignal(req: Request, res: { on(event: 'close', listener: () => void): unknown; writableFinished: boolean }): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
