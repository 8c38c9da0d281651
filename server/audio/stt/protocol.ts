/** A whisper model file the engine may load. */
export interface WhisperModelRef {
  id: string;
  path: string;
}

/** Options of one transcription. */
export interface TranscribeOptions {
  /** ISO-639-1 code, or undefined to let whisper detect the language. */
  language?: string;
  /** Text that primes the decoder (names, spelling). */
  prompt?: string;
  /** CPU threads (resolved from the machine's cores). */
  threads: number;
  /** Recordings longer than this are refused before any work. */
  maxSeconds: number;
}

/** What one transcription found. */
export interface TranscriptResult {
  text: string;
  /** The language whisper used or detected. */
  language: string;
  /** Seconds of audio heard. */
  duration: number;
  segments: Array<{ start: number; end: number; text: string }>;
}

/** Service → engine. `job` numbers the service's own requests so an abort can name one. */
export type EngineRequest =
  | { type: 'transcribe'; job: number; model: WhisperModelRef; audio: Uint8Array; options: TranscribeOptions; idleMs: number }
  | { type: 'probe'; path: string; threads: number }
  | { type: 'abort'; job: number }
  | { type: 'unload'; path?: string }
  | { type: 'close' };

/**
 * Why a request failed: `audio` (the recording cannot be decoded), `too-long` (past the limit),
 * `load` (the model did not load), `aborted`, `failed`.
 */
export type EngineErrorCode = 'audio' | 'too-long' | 'load' | 'aborted' | 'failed';

/** Engine → service: the answer to one request. */
export type EngineReply = { ok: true; result?: TranscriptResult } | { ok: false; code: EngineErrorCode; message: string };
