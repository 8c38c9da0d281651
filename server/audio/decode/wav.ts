/** Audio as floats per channel, the shape every decoder here returns. */
export interface DecodedAudio {
  sampleRate: number;
  channels: Float32Array[];
}

/** The file is not audio this service can read; `message` says why, for the person who sent it. */
export class AudioDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AudioDecodeError';
  }
}

const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/**
 * Reads a RIFF/WAVE file: integer PCM of 8, 16, 24 or 32 bits and 32/64-bit floats, any channel
 * count. Sizes of 0 or 0xFFFFFFFF (written by programs streaming to a pipe) mean "to the end".
 */
export function decodeWav(bytes: Uint8Array): DecodedAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format = 0;
  let channelCount = 0;
  let sampleRate = 0;
  let bits = 0;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    let size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (size === 0xffffffff || body + size > bytes.length || (id === 'data' && size === 0)) size = bytes.length - body;
    if (id === 'fmt ') {
      if (size < 16) throw new AudioDecodeError('the WAV format chunk is too short');
      format = view.getUint16(body, true);
      channelCount = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      if (format === EXTENSIBLE && size >= 26) format = view.getUint16(body + 24, true);
    } else if (id === 'data') {
      if (!format) throw new AudioDecodeError('the WAV data comes before its format chunk');
      return readSamples(view, body, size, { format, channelCount, sampleRate, bits });
    }
    at = body + size + (size % 2);
  }
  throw new AudioDecodeError('the WAV file holds no audio data');
}

function readSamples(view: DataView, start: number, size: number, fmt: { format: number; channelCount: number; sampleRate: number; bits: number }): DecodedAudio {
  const { format, channelCount, sampleRate, bits } = fmt;
  if (channelCount < 1 || channelCount > 32 || sampleRate < 1000 || sampleRate > 384_000) throw new AudioDecodeError('the WAV header names an impossible channel count or sample rate');
  const read = sampleReader(view, format, bits);
  const step = bits / 8;
  const frames = Math.floor(size / (step * channelCount));
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
  for (let frame = 0; frame < frames; frame++) {
    for (let c = 0; c < channelCount; c++) channels[c]![frame] = read(start + (frame * channelCount + c) * step);
  }
  return { sampleRate, channels };
}

function sampleReader(view: DataView, format: number, bits: number): (at: number) => number {
  if (format === PCM && bits === 16) return (at) => view.getInt16(at, true) / 32768;
  if (format === PCM && bits === 8) return (at) => (view.getUint8(at) - 128) / 128;
  if (format === PCM && bits === 24) return (at) => ((view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8388608);
  if (format === PCM && bits === 32) return (at) => view.getInt32(at, true) / 2147483648;
  if (format === FLOAT && bits === 32) return (at) => view.getFloat32(at, true);
  if (format === FLOAT && bits === 64) return (at) => view.getFloat64(at, true);
  throw new AudioDecodeError(`WAV encoding ${format} with ${bits}-bit samples is not supported (use PCM or float)`);
}

/** 16-bit mono PCM samples as a WAV file. */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const out = Buffer.alloc(44 + samples.length * 2);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples.length * 2, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(PCM, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples.length * 2, 40);
  Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).copy(out, 44);
  return out;
}
