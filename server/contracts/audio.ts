import { z } from 'zod';
import { OptionalUrl } from './urls';

/** Speech-to-text engines: `` = the browser's own recognition (opt-in, in the UI), `openai` = an OpenAI-compatible provider, `local` = whisper.cpp in the service. */
export const SttEngine = z.enum(['', 'openai', 'local']);
/** Read-aloud engines: `` = the browser's voices, `openai` = an OpenAI-compatible provider, `local` = espeak-ng in the service. */
export const TtsEngine = z.enum(['', 'openai', 'local']);

/** A provider's base URL: http(s) or empty (not set), trailing slashes dropped. */
const BaseUrl = OptionalUrl;

/** Read-aloud settings (Open WebUI's shape). */
export const TtsConfig = z.object({
  ENGINE: TtsEngine,
  /** Provider model (`tts-1`), ignored by the other engines. */
  MODEL: z.string().trim().max(200),
  /** Voice id: a provider voice (`alloy`) or an espeak-ng voice (`en-us`); `` = the engine's default. */
  VOICE: z.string().trim().max(200),
  OPENAI_API_BASE_URL: BaseUrl,
  /** Stored in the secret store; answered masked. Send the masked value back to keep the key. */
  OPENAI_API_KEY: z.string().max(4096),
  /** Where answers are cut for read-aloud: `punctuation` (sentences) or `paragraphs`. */
  SPLIT_ON: z.enum(['punctuation', 'paragraphs', 'none']),
});
export type TtsConfig = z.infer<typeof TtsConfig>;

/** Speech-to-text settings (Open WebUI's shape, plus Parley's limits). */
export const SttConfig = z.object({
  ENGINE: SttEngine,
  /** Provider model (`whisper-1`) or, for `local`, the id of a transcription model in the built-in library (`` = the first ready one). */
  MODEL: z.string().trim().max(200),
  OPENAI_API_BASE_URL: BaseUrl,
  OPENAI_API_KEY: z.string().max(4096),
  /** Largest upload, in MB. */
  MAX_FILE_SIZE_MB: z.number().int().min(1).max(200),
  /** Longest recording the local engine transcribes, in seconds. */
  MAX_DURATION_SECONDS: z.number().int().min(5).max(7200),
  /** Keep uploaded recordings (in `<data dir>/audio`) after transcription; off = nothing is kept. */
  KEEP_AUDIO: z.boolean(),
});
export type SttConfig = z.infer<typeof SttConfig>;

/** GET /api/v1/audio/config and the update's answer. */
export const AudioConfig = z.object({ tts: TtsConfig, stt: SttConfig });
export type AudioConfig = z.infer<typeof AudioConfig>;

/** POST /api/v1/audio/config/update: either half, any subset of its fields. */
export const AudioConfigUpdate = z.object({ tts: TtsConfig.partial().optional(), stt: SttConfig.partial().optional() });
export type AudioConfigUpdate = z.infer<typeof AudioConfigUpdate>;

/** The masked form of a stored key. */
export const MASKED_KEY = '••••••••';

/** POST /api/v1/audio/speech and /v1/audio/speech: OpenAI's speech body. */
export const SpeechRequest = z.object({
  /** Ignored by the browser and local engines; the configured model when absent. */
  model: z.string().trim().max(200).optional(),
  input: z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters'),
  voice: z.string().trim().max(200).optional(),
  /** `wav` or `pcm` from the local voice; providers also give `mp3`, `opus`, `aac`, `flac`. */
  response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).optional(),
  speed: z.number().min(0.25).max(4).optional(),
  instructions: z.string().max(4096).optional(),
});
export type SpeechRequest = z.infer<typeof SpeechRequest>;

/** POST /api/v1/audio/transcriptions answer. */
export const TranscriptionResponse = z.object({
  text: z.string(),
  /** Seconds heard (local engine). */
  duration: z.number().optional(),
  language: z.string().optional(),
});
export type TranscriptionResponse = z.infer<typeof TranscriptionResponse>;

/** POST /v1/audio/transcriptions in OpenAI's shapes: `json` (`{text}`) or `verbose_json` (`text` answers text/plain). */
export const V1Transcription = z.union([
  z.object({ task: z.literal('transcribe'), language: z.string(), duration: z.number(), text: z.string(), segments: z.array(z.unknown()) }),
  z.object({ text: z.string() }),
]);

/** GET /api/v1/audio/models. */
export const AudioModels = z.object({ models: z.array(z.object({ id: z.string(), name: z.string().optional() })) });
export type AudioModels = z.infer<typeof AudioModels>;

/** GET /api/v1/audio/voices. */
export const AudioVoices = z.object({ voices: z.array(z.object({ id: z.string(), name: z.string(), language: z.string().optional() })) });
export type AudioVoices = z.infer<typeof AudioVoices>;

/** What every signed-in person may know to show the microphone and read-aloud (GET /api/v1/audio/engines). */
export const AudioEngines = z.object({
  stt: z.object({ engine: SttEngine, ready: z.boolean(), reason: z.string().optional(), max_file_size_mb: z.number() }),
  tts: z.object({ engine: TtsEngine, ready: z.boolean(), reason: z.string().optional(), voice: z.string(), split_on: z.string() }),
});
export type AudioEngines = z.infer<typeof AudioEngines>;
