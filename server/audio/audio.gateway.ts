import type { Response } from 'express';
import { SpeechRequest, V1Transcription, type TranscriptionResponse } from '../contracts/audio';
import { badRequest } from '../platform/http/errors';
import { route, type RouteAuth, type Routes } from '../platform/http/route';
import type { AudioService } from './audio.service';
import { V1TranscriptionFormat } from './audio.routes';
import { hangUpSignal, receiveRecording } from './receive-recording';
import { sendSpeech } from './send-speech';

/** The gateway's check run before the body is read (its per-key rate limit). */
export type GatewayAuthorize = (ctx: { auth: RouteAuth; res: Response }) => Promise<void>;

/**
 * OpenAI's `/v1/audio/transcriptions` and `/v1/audio/speech` on the gateway, answered by the
 * engines an admin configured (errors in OpenAI's shape from the gateway's fallbacks).
 */
export function audioGatewayRoutes(audio: AudioService, authorize: GatewayAuthorize): Routes {
  return [
    route(
      {
        method: 'post',
        path: '/audio/transcriptions',
        guard: 'user',
        permission: 'chat.stt',
        authorize,
        consumes: 'multipart',
        response: V1Transcription,
        summary: 'OpenAI transcription: multipart `file` (wav, webm, ogg, mp3, flac; m4a through a provider), `response_format` json, text or verbose_json; needs chat.stt',
      },
      async ({ user, req, res }) => {
        const { recording, fields } = await receiveRecording(req, await audio.maxBytes());
        const format = V1TranscriptionFormat.safeParse(fields.response_format || 'json');
        if (!format.success) throw badRequest("Field 'response_format': must be json, text or verbose_json", 'FORMAT_UNSUPPORTED');
        const result: TranscriptionResponse = await audio.transcribe(user.id, recording, { language: fields.language || undefined, prompt: fields.prompt || undefined }, hangUpSignal(req, res));
        if (format.data === 'text') {
          res.type('text/plain').send(result.text);
          return undefined;
        }
        if (format.data === 'verbose_json') {
          return { task: 'transcribe' as const, language: result.language ?? fields.language ?? 'unknown', duration: result.duration ?? 0, text: result.text, segments: [] };
        }
        return { text: result.text };
      },
    ),
    route(
      { method: 'post', path: '/audio/speech', guard: 'user', permission: 'chat.tts', authorize, body: SpeechRequest, invalid: 400, produces: 'binary', summary: 'OpenAI speech: `{model, input, voice, response_format, speed}` → audio bytes (wav or pcm from the offline voice); needs chat.tts' },
      async ({ body, req, res }) => {
        await sendSpeech(res, await audio.speech(body, hangUpSignal(req, res)));
      },
    ),
  ];
}
