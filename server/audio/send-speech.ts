import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Response } from 'express';
import type { SpeechAudio } from './audio.service';

/** Sends synthesized speech: bytes at once, or a provider's audio streamed through as it arrives. */
export async function sendSpeech(res: Response, audio: SpeechAudio): Promise<void> {
  res.setHeader('Content-Type', audio.mime);
  res.setHeader('Cache-Control', 'no-store');
  if (audio.kind === 'bytes') {
    res.setHeader('Content-Length', String(audio.bytes.length));
    res.end(audio.bytes);
    return;
  }
  await pipeline(Readable.fromWeb(audio.response.body as WebReadableStream<Uint8Array>), res).catch(() => undefined);
}
