import type { RequestHandler, Router } from 'express';
import { authOf } from '../session';
import { SpeechRequest, type TranscriptionResponse } from '../contracts/audio';
import type { PermissionKey } from '../contracts/permissions';
import { badRequest, forbidden } from '../platform/http/errors';
import { parseOrThrow } from '../platform/http/validate';
import type { AudioService } from './audio.service';
import { V1TranscriptionFormat } from './audio.routes';
import { hangUpSignal, receiveRecording } from './receive-recording';
import { sendSpeech } from './send-speech';

/** What the /v1 audio endpoints need. */
export interface AudioGatewayDeps {
  audio: AudioService;
  allows: (user: { id: string; role: 'pending' | 'user' | 'admin' }, key: PermissionKey) => Promise<boolean>;
}

function needs(deps: AudioGatewayDeps, key: PermissionKey): RequestHandler {
  return async (req, _res, next) => {
    const { user } = authOf(req);
    if (user.role === 'admin' || (await deps.allows(user, key))) return next();
    req.resume();
    throw forbidden(`This needs the permission '${key}'`, 'PERMISSION_REQUIRED');
  };
}

/**
 * OpenAI's `/v1/audio/transcriptions` and `/v1/audio/speech` on the gateway, answered by the
 * engines an admin configured (errors in OpenAI's shape from the gateway's handler).
 */
export function audioGatewayRoutes(router: Router, guard: RequestHandler[], deps: AudioGatewayDeps): void {
  router.post('/audio/transcriptions', ...guard, needs(deps, 'chat.stt'), async (req, res) => {
    const { recording, fields } = await receiveRecording(req, await deps.audio.maxBytes());
    const format = V1TranscriptionFormat.safeParse(fields.response_format || 'json');
    if (!format.success) throw badRequest("Field 'response_format': must be json, text or verbose_json", 'FORMAT_UNSUPPORTED');
    const result: TranscriptionResponse = await deps.audio.transcribe(authOf(req).user.id, recording, { language: fields.language || undefined, prompt: fields.prompt || undefined }, hangUpSignal(req, res));
    if (format.data === 'text') {
      res.type('text/plain').send(result.text);
      return;
    }
    if (format.data === 'verbose_json') {
      res.json({ task: 'transcribe', language: result.language ?? fields.language ?? 'unknown', duration: result.duration ?? 0, text: result.text, segments: [] });
      return;
    }
    res.json({ text: result.text });
  });

  router.post('/audio/speech', ...guard, needs(deps, 'chat.tts'), async (req, res) => {
    const body = parseOrThrow(SpeechRequest, req.body, { status: 400 });
    await sendSpeech(res, await deps.audio.speech(body, hangUpSignal(req, res)));
  });
}
