import { loadExports } from '../../platform/library-exports';
import { toMono, WHISPER_RATE } from './resample';
import { mimeOf, sniffAudio, type AudioContainer } from './sniff';
import { AudioDecodeError, decodeWav, type DecodedAudio } from './wav';
import { demuxWebm } from './webm';

export { AudioDecodeError } from './wav';

/** Containers the built-in engine decodes (the others go to providers untouched). */
export const DECODABLE: readonly AudioContainer[] = ['wav', 'mp3', 'ogg', 'flac', 'webm'];

interface WasmDecoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: Array<{ message: string }>;
}

/** Turns a WASM decoder's answer into DecodedAudio, refusing output that decoded nothing. */
function fromWasm(result: WasmDecoded, what: string): DecodedAudio {
  if (result.samplesDecoded === 0 || result.channelData.length === 0) {
    const reason = result.errors[0]?.message;
    throw new AudioDecodeError(`no ${what} audio could be decoded${reason ? ` (${reason})` : ''}`);
  }
  return { sampleRate: result.sampleRate, channels: result.channelData.map((c) => c.subarray(0, result.samplesDecoded)) };
}

/** Ogg holds Opus, Vorbis or FLAC: the first page's packet says which. */
async function decodeOgg(bytes: Uint8Array): Promise<DecodedAudio> {
  const head = new TextDecoder('latin1').decode(bytes.subarray(28, 36));
  if (head.startsWith('OpusHead')) {
    const { OggOpusDecoder } = await loadExports(import('ogg-opus-decoder'), 'ogg-opus-decoder', 'OggOpusDecoder');
    const decoder = new OggOpusDecoder();
    await decoder.ready;
    try {
      return fromWasm(await decoder.decodeFile(bytes), 'Ogg Opus');
    } finally {
      decoder.free();
    }
  }
  if (head.includes('vorbis')) {
    const { OggVorbisDecoder } = await loadExports(import('@wasm-audio-decoders/ogg-vorbis'), '@wasm-audio-decoders/ogg-vorbis', 'OggVorbisDecoder');
    const decoder = new OggVorbisDecoder();
    await decoder.ready;
    try {
      return fromWasm(await decoder.decodeFile(bytes), 'Ogg Vorbis');
    } finally {
      decoder.free();
    }
  }
  if (head.includes('FLAC')) return decodeFlac(bytes);
  throw new AudioDecodeError('the Ogg file holds neither Opus, Vorbis nor FLAC audio');
}

async function decodeFlac(bytes: Uint8Array): Promise<DecodedAudio> {
  const { FLACDecoder } = await loadExports(import('@wasm-audio-decoders/flac'), '@wasm-audio-decoders/flac', 'FLACDecoder');
  const decoder = new FLACDecoder();
  await decoder.ready;
  try {
    return fromWasm(await decoder.decodeFile(bytes), 'FLAC');
  } finally {
    decoder.free();
  }
}

async function decodeMp3(bytes: Uint8Array): Promise<DecodedAudio> {
  const { MPEGDecoder } = await loadExports(import('mpg123-decoder'), 'mpg123-decoder', 'MPEGDecoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    return fromWasm(decoder.decode(bytes), 'MP3');
  } finally {
    decoder.free();
  }
}

async function decodeWebm(bytes: Uint8Array): Promise<DecodedAudio> {
  const track = demuxWebm(bytes);
  if (track.codec !== 'A_OPUS') throw new AudioDecodeError(`WebM audio in ${track.codec || 'an unnamed codec'} is not supported (Opus is)`);
  const head = track.codecPrivate;
  const channels = head && head.length >= 19 ? head[9]! : track.channels;
  const preSkip = head && head.length >= 19 ? head[10]! | (head[11]! << 8) : 0;
  if (channels > 2) throw new AudioDecodeError('WebM Opus audio with more than two channels is not supported');
  const { OpusDecoder } = await loadExports(import('opus-decoder'), 'opus-decoder', 'OpusDecoder');
  const decoder = new OpusDecoder({ channels: channels as 1 | 2, preSkip });
  await decoder.ready;
  try {
    return fromWasm(decoder.decodeFrames(track.frames), 'WebM Opus');
  } finally {
    decoder.free();
  }
}

/** The decoder of each container this engine reads. */
const DECODERS: Partial<Record<AudioContainer, (bytes: Uint8Array) => Promise<DecodedAudio> | DecodedAudio>> = {
  wav: decodeWav,
  mp3: decodeMp3,
  ogg: decodeOgg,
  flac: decodeFlac,
  webm: decodeWebm,
};

/** Speech ready for whisper: 16 kHz mono floats, and how long it lasts. */
export interface SpeechSamples {
  samples: Float32Array;
  seconds: number;
}

/**
 * Decodes an uploaded recording (WAV, MP3, Ogg Opus/Vorbis/FLAC, FLAC or WebM Opus, recognised
 * by its bytes) to 16 kHz mono. The WASM decoders load on first use. Throws AudioDecodeError
 * naming the problem for anything else (MP4/M4A holds AAC, for which no decoder under a licence
 * compatible with Parley's is on npm: providers take it as it is).
 */
export async function decodeSpeech(bytes: Uint8Array): Promise<SpeechSamples> {
  const container = sniffAudio(bytes);
  const decode = DECODERS[container];
  if (!decode) {
    if (container === 'mp4') throw new AudioDecodeError('MP4/M4A (AAC) audio cannot be decoded by the built-in engine: send WAV, MP3, Ogg, FLAC or WebM, or use a speech-to-text provider');
    throw new AudioDecodeError('the file is not audio in a format the built-in engine reads (WAV, MP3, Ogg, FLAC, WebM)');
  }
  let decoded: DecodedAudio;
  try {
    decoded = await decode(bytes);
  } catch (error) {
    if (error instanceof AudioDecodeError) throw error;
    throw new AudioDecodeError(`the ${mimeOf(container)} file could not be decoded: ${(error as Error).message}`);
  }
  const samples = toMono(decoded, WHISPER_RATE);
  return { samples, seconds: samples.length / WHISPER_RATE };
}
