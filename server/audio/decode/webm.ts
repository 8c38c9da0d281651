import { AudioDecodeError } from './wav';

/** The first audio track of a WebM/Matroska file: its codec and the frames of its blocks. */
export interface WebmAudioTrack {
  /** Matroska codec id, such as `A_OPUS` or `A_VORBIS`. */
  codec: string;
  /** CodecPrivate: the OpusHead for Opus. */
  codecPrivate: Uint8Array | undefined;
  channels: number;
  frames: Uint8Array[];
}

const ID = {
  segment: 0x18538067,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  audio: 0xe1,
  channels: 0x9f,
  cluster: 0x1f43b675,
  blockGroup: 0xa0,
  block: 0xa1,
  simpleBlock: 0xa3,
} as const;

/** Containers whose children are read in place (their size may be "unknown" in live recordings). */
const DESCEND = new Set<number>([ID.segment, ID.tracks, ID.trackEntry, ID.audio, ID.cluster, ID.blockGroup]);

/** An EBML variable-length integer at `at`: its value and length; `unknown` when all value bits are set. */
function vint(bytes: Uint8Array, at: number, keepMarker = false): { value: number; length: number; unknown: boolean } {
  const first = bytes[at];
  if (first === undefined || first === 0) throw new AudioDecodeError('the WebM file is cut short or damaged');
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) throw new AudioDecodeError('the WebM file is cut short');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    if (bytes[at + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

const uint = (bytes: Uint8Array) => bytes.reduce((n, b) => n * 256 + b, 0);

/** Frames of one block body (after the track number, timecode and flags), with every lacing Matroska allows. */
function blockFrames(bytes: Uint8Array, flags: number): Uint8Array[] {
  const lacing = (flags >> 1) & 3;
  if (lacing === 0) return [bytes];
  const count = bytes[0]! + 1;
  let at = 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    for (let i = 0; i < count - 1; i++) {
      let size = 0;
      let byte: number;
      do {
        byte = bytes[at++]!;
        size += byte;
      } while (byte === 255);
      sizes.push(size);
    }
  } else if (lacing === 3) {
    const first = vint(bytes, at);
    at += first.length;
    sizes.push(first.value);
    for (let i = 1; i < count - 1; i++) {
      const diff = vint(bytes, at);
      at += diff.length;
      sizes.push(sizes[i - 1]! + diff.value - (2 ** (7 * diff.length - 1) - 1));
    }
  } else {
    const size = (bytes.length - at) / count;
    for (let i = 0; i < count - 1; i++) sizes.push(size);
  }
  const frames: Uint8Array[] = [];
  for (const size of sizes) {
    frames.push(bytes.subarray(at, at + size));
    at += size;
  }
  frames.push(bytes.subarray(at));
  return frames;
}

/**
 * Reads the first audio track out of a WebM file, as browsers' MediaRecorder writes them
 * (live, with clusters of unknown size): a flat walk over EBML elements that enters the few
 * containers that matter and skips everything else.
 */
export function demuxWebm(bytes: Uint8Array): WebmAudioTrack {
  const tracks: Array<{ number: number; type: number; codec: string; codecPrivate?: Uint8Array; channels: number }> = [];
  const blocks: Array<{ track: number; frames: Uint8Array[] }> = [];
  let at = 0;
  while (at < bytes.length) {
    const id = vint(bytes, at, true);
    const size = vint(bytes, at + id.length);
    const body = at + id.length + size.length;
    if (DESCEND.has(id.value)) {
      if (id.value === ID.trackEntry) tracks.push({ number: 0, type: 0, codec: '', channels: 1 });
      at = body;
      continue;
    }
    const end = size.unknown ? bytes.length : Math.min(bytes.length, body + size.value);
    const data = bytes.subarray(body, end);
    const track = tracks.at(-1);
    if (id.value === ID.trackNumber && track) track.number = uint(data);
    else if (id.value === ID.trackType && track) track.type = uint(data);
    else if (id.value === ID.codecId && track) track.codec = new TextDecoder().decode(data);
    else if (id.value === ID.codecPrivate && track) track.codecPrivate = data;
    else if (id.value === ID.channels && track) track.channels = uint(data);
    else if ((id.value === ID.simpleBlock || id.value === ID.block) && data.length > 4) {
      const number = vint(data, 0);
      blocks.push({ track: number.value, frames: blockFrames(data.subarray(number.length + 3), data[number.length + 2]!) });
    }
    at = end;
  }
  const audio = tracks.find((t) => t.type === 2) ?? tracks.find((t) => t.codec.startsWith('A_'));
  if (!audio) throw new AudioDecodeError('the WebM file has no audio track');
  return { codec: audio.codec, codecPrivate: audio.codecPrivate, channels: audio.channels, frames: blocks.filter((b) => b.track === audio.number).flatMap((b) => b.frames) };
}
