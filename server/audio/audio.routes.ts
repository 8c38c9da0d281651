import { z } from 'zod';
import { AudioConfig, AudioConfigUpdate, AudioEngines, AudioModels, AudioVoices, SpeechRequest, TranscriptionResponse } from '../contracts/audio';
import { route, type Routes } from '../platform/http/route';
import type { AudioService } from './audio.service';
import type { AudioSettings } from './audio-settings';
import { hangUpSignal, receiveRecording } from './receive-recording';
import { sendSpeech } from './send-speech';

/** Speech-to-text and read-aloud on Open WebUI's paths. Mounted at `/api/v1/audio`. */
export function audioRoutes(audio: AudioService, settings: AudioSettings): Routes {
  return [
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'Audio settings (keys masked)', response: AudioConfig }, () => settings.get()),
    route({ method: 'post', path: '/config/update', guard: 'admin', body: AudioConfigUpdate, invalid: 400, summary: 'Change the audio settings', response: AudioConfig }, ({ body }) => settings.update(body)),
    route({ method: 'get', path: '/engines', guard: 'user', summary: 'Which speech engines are set up, for the microphone and read-aloud', response: AudioEngines }, () => audio.engines()),
    route(
      { method: 'post', path: '/transcriptions', guard: 'user', permission: 'chat.stt', consumes: 'multipart', summary: 'Transcribe a recording (wav, webm, ogg, mp3, flac; m4a through a provider)', response: TranscriptionResponse },
      async ({ user, req, res }) => {
        const { recording, fields } = await receiveRecording(req, await audio.maxBytes());
        return audio.transcribe(user.id, recording, { language: fields.language || undefined, prompt: fields.prompt || undefined }, hangUpSignal(req, res));
      },
    ),
    route({ method: 'post', path: '/speech', guard: 'user', permission: 'chat.tts', body: SpeechRequest, invalid: 400, produces: 'binary', summary: 'Speak a text (OpenAI’s speech body)' }, async ({ body, req, res }) => {
      await sendSpeech(res, await audio.speech(body, hangUpSignal(req, res)));
    }),
    route({ method: 'get', path: '/models', guard: 'user', summary: 'Models of the read-aloud engine', response: AudioModels }, () => audio.models()),
    route({ method: 'get', path: '/voices', guard: 'user', summary: 'Voices of the read-aloud engine', response: AudioVoices }, () => audio.voices()),
  ];
}

/** OpenAI's transcription `response_format`s the gateway answers. */
export const V1TranscriptionFormat = z.enum(['json', 'text', 'verbose_json']);
