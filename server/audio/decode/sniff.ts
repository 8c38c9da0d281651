/** Containers the service recognises by their first bytes (never by file name or MIME type). */
export type AudioContainer = 'wav' | 'mp3' | 'ogg' | 'flac' | 'webm' | 'mp4' | 'unknown';

const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** What container `bytes` hold, from their magic numbers. */
export function sniffAudio(bytes: Uint8Array): AudioContainer {
  if (bytes.length < 12) return 'unknown';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return 'wav';
  if (ascii(bytes, 0, 'OggS')) return 'ogg';
  if (ascii(bytes, 0, 'fLaC')) return 'flac';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  if (ascii(bytes, 4, 'ftyp')) return 'mp4';
  if (ascii(bytes, 0, 'ID3')) return 'mp3';
  // An MPEG audio frame: 11 sync bits, then a layer that is not "reserved".
  if (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x06) !== 0) return 'mp3';
  return 'unknown';
}

/** The MIME type of a container, for providers that want one. */
export function mimeOf(container: AudioContainer): string {
  return { wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg', flac: 'audio/flac', webm: 'audio/webm', mp4: 'audio/mp4', unknown: 'application/octet-stream' }[container];
}
