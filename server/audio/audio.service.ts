import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { autoThreads, BuiltinSection } from '../builtin';
import type { ModelLibrary } from '../builtin';
import type { ConfigService } from '../config';
import type { AudioEngines, AudioModels, AudioVoices, SpeechRequest, TranscriptionResponse } from '../contracts/audio';
import { badRequest, HttpError } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import type { AudioSettings } from './audio-settings';
import { mimeOf, sniffAudio } from './decode/sniff';
import { LocalSttError, type LocalStt } from './stt/local-stt';
import { transcribeWithProvider, type Recording } from './stt/openai-stt';
import { espeakSpeak, espeakVoices, findEspeak } from './tts/espeak';
import { OPENAI_VOICES, speakWithProvider } from './tts/openai-tts';

export interface AudioServiceDeps {
  settings: AudioSettings;
  config: ConfigService;
  library: Pick<ModelLibrary, 'ready'>;
  localStt: LocalStt;
  /** Where kept recordings go (`<data dir>/audio`), when an admin keeps them. */
  dir: string;
  log: Logger;
  env?: NodeJS.ProcessEnv;
}

/** Speech from the service: bytes to send, or a provider's response to stream on. */
export type SpeechAudio = { kind: 'bytes'; mime: string; bytes: Buffer } | { kind: 'stream'; mime: string; response: Response };

const unavailable = (message: string, code: string) => new HttpError(503, code, message);

/** Local engine failures as answers: the recording's problems are 400s, the engine's are 5xx. */
function fromLocal(error: unknown): unknown {
  if (!(error instanceof LocalSttError)) return error;
  if (error.code === 'audio' || error.code === 'too-long') return badRequest(error.message, error.code === 'audio' ? 'BAD_AUDIO' : 'AUDIO_TOO_LONG');
  if (error.code === 'load') return unavailable(`The transcription model could not be loaded: ${error.message}`, 'STT_MODEL_BROKEN');
  return error;
}

/**
 * Speech-to-text and read-aloud: picks the configured engine, enforces the limits, keeps
 * recordings only when an admin said so, and answers in OpenAI's and Open WebUI's shapes.
 */
export function createAudioService(deps: AudioServiceDeps) {
  const { settings, library, localStt, log } = deps;
  const env = deps.env ?? process.env;
  let espeak: { bin: string | undefined } | undefined;
  const espeakBin = () => (espeak ??= { bin: findEspeak(env) }).bin;
  let espeakVoiceIds: Promise<Set<string>> | undefined;
  /** The voice to speak with: the request's when espeak-ng has it (OpenAI clients always send one, such as `alloy`), else the configured one. */
  async function espeakVoice(bin: string, requested: string | undefined, configured: string): Promise<string> {
    if (!requested) return configured || 'en';
    espeakVoiceIds ??= espeakVoices(bin).then((voices) => new Set(voices.map((v) => v.id)));
    return (await espeakVoiceIds).has(requested) ? requested : configured || 'en';
  }

  async function localModel(id: string) {
    const models = await library.ready('transcription');
    const model = id ? models.find((m) => m.id === id) : models[0];
    if (!model) {
      throw unavailable(
        id ? `The transcription model '${id}' is not in the model library (or not downloaded yet)` : 'No transcription model is installed: an admin can download Whisper in Admin → Models',
        'STT_MODEL_MISSING',
      );
    }
    return { id: model.id, path: model.runtime.path };
  }

  async function keep(userId: string, recording: Recording): Promise<void> {
    const dir = path.join(deps.dir, userId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const extension = sniffAudio(recording.bytes);
    await writeFile(path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.${extension === 'unknown' ? 'bin' : extension}`), recording.bytes, { mode: 0o600 });
  }

  return {
    /** Most an upload may weigh, in bytes. */
    async maxBytes(): Promise<number> {
      return (await settings.resolved()).stt.MAX_FILE_SIZE_MB * 1024 * 1024;
    },

    /** Transcribes one recording with the configured engine. */
    async transcribe(userId: string, recording: Recording, input: { language?: string; prompt?: string; model?: string }, signal?: AbortSignal): Promise<TranscriptionResponse> {
      const { stt } = await settings.resolved();
      if (recording.bytes.length === 0) throw badRequest('The recording is empty', 'BAD_AUDIO');
      if (stt.KEEP_AUDIO) await keep(userId, recording);
      if (stt.ENGINE === 'openai') {
        const mime = recording.mime && recording.mime !== 'application/octet-stream' ? recording.mime : mimeOf(sniffAudio(recording.bytes));
        return transcribeWithProvider({ baseUrl: stt.OPENAI_API_BASE_URL, key: stt.OPENAI_API_KEY, model: stt.MODEL, recording: { ...recording, mime }, language: input.language, prompt: input.prompt, signal });
      }
      if (stt.ENGINE === 'local') {
        const model = await localModel(stt.MODEL);
        const builtin = await deps.config.get(BuiltinSection);
        try {
          const result = await localStt.transcribe(model, recording.bytes, { language: input.language, prompt: input.prompt, threads: builtin.threads || autoThreads(), maxSeconds: stt.MAX_DURATION_SECONDS }, signal);
          log.info({ model: model.id, seconds: Math.round(result.duration) }, 'speech transcribed');
          return { text: result.text, duration: result.duration, language: result.language };
        } catch (error) {
          throw fromLocal(error);
        }
      }
      throw unavailable('Speech-to-text runs in the browser on this server: an admin can choose an engine in Admin → Audio', 'STT_NOT_CONFIGURED');
    },

    /** Speaks a text with the configured voice. */
    async speech(request: SpeechRequest, signal?: AbortSignal): Promise<SpeechAudio> {
      const { tts } = await settings.resolved();
      if (tts.ENGINE === 'openai') {
        const response = await speakWithProvider({ baseUrl: tts.OPENAI_API_BASE_URL, key: tts.OPENAI_API_KEY, model: request.model || tts.MODEL, voice: request.voice || tts.VOICE || 'alloy', request, signal });
        return { kind: 'stream', mime: response.headers.get('content-type') ?? 'audio/mpeg', response };
      }
      if (tts.ENGINE === 'local') {
        const bin = espeakBin();
        if (!bin) throw unavailable('The offline voice needs the espeak-ng program, which is not installed on the server (see the README)', 'ESPEAK_MISSING');
        const format = request.response_format ?? 'wav';
        if (format !== 'wav' && format !== 'pcm') throw badRequest(`Field 'response_format': the offline voice speaks wav or pcm, not ${format}`, 'FORMAT_UNSUPPORTED');
        try {
          const voice = await espeakVoice(bin, request.voice, tts.VOICE);
          const bytes = await espeakSpeak(bin, { text: request.input, voice, speed: request.speed ?? 1, format, signal });
          return { kind: 'bytes', mime: format === 'wav' ? 'audio/wav' : 'audio/pcm', bytes };
        } catch (error) {
          if (signal?.aborted) throw error;
          throw new HttpError(/voice/i.test((error as Error).message) ? 400 : 500, 'SPEECH_FAILED', `The offline voice failed: ${(error as Error).message}`);
        }
      }
      throw unavailable('Read-aloud uses the browser’s voices on this server: an admin can choose a voice engine in Admin → Audio', 'TTS_NOT_CONFIGURED');
    },

    /** Models of the read-aloud engine (Open WebUI: GET /audio/models). */
    async models(): Promise<AudioModels> {
      const { tts } = await settings.resolved();
      if (tts.ENGINE === 'openai') return { models: [{ id: 'tts-1' }, { id: 'tts-1-hd' }, { id: 'gpt-4o-mini-tts' }] };
      if (tts.ENGINE === 'local') return { models: [{ id: 'espeak-ng', name: 'eSpeak NG' }] };
      return { models: [] };
    },

    /** Voices of the read-aloud engine (Open WebUI: GET /audio/voices). */
    async voices(): Promise<AudioVoices> {
      const { tts } = await settings.resolved();
      if (tts.ENGINE === 'openai') return { voices: OPENAI_VOICES.map((id) => ({ id, name: id })) };
      const bin = tts.ENGINE === 'local' ? espeakBin() : undefined;
      if (!bin) return { voices: [] };
      return { voices: await espeakVoices(bin) };
    },

    /** What the UI needs to offer the microphone and read-aloud, and why not when it cannot. */
    async engines(): Promise<AudioEngines> {
      const { stt, tts } = await settings.resolved();
      let sttReady = stt.ENGINE !== '';
      let sttReason: string | undefined;
      if (stt.ENGINE === 'local' && (await library.ready('transcription')).length === 0) {
        sttReady = false;
        sttReason = 'no-model';
      }
      if (stt.ENGINE === '') sttReason = 'browser';
      const ttsReady = tts.ENGINE === 'openai' || (tts.ENGINE === 'local' && espeakBin() !== undefined);
      return {
        stt: { engine: stt.ENGINE, ready: sttReady, ...(sttReason ? { reason: sttReason } : {}), max_file_size_mb: stt.MAX_FILE_SIZE_MB },
        tts: { engine: tts.ENGINE, ready: ttsReady, ...(tts.ENGINE === 'local' && !ttsReady ? { reason: 'no-espeak' } : tts.ENGINE === '' ? { reason: 'browser' } : {}), voice: tts.VOICE, split_on: tts.SPLIT_ON },
      };
    },
  };
}
export type AudioService = ReturnType<typeof createAudioService>;
