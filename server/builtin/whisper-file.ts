import { open, type FileHandle } from 'node:fs/promises';

/** What a whisper.cpp model file's header says, as the model library shows it. */
export interface WhisperFileInfo {
  /** `tiny`, `base`, `small`, `medium`, `large` or `custom`, from the encoder's depth. */
  size: string;
  /** Whether it knows languages other than English (the `.en` models do not). */
  multilingual: boolean;
  /** Weight type of its big tensors, such as `F16` or `Q5_1`. */
  quantization: string;
  /** Rough memory to run it: the weights plus whisper.cpp's work buffers. */
  ram_estimate: number;
}

/** The file is not a whisper model whisper.cpp could run; `message` says why. */
export class WhisperFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WhisperFileError';
  }
}

const MAGIC = 0x67676d6c; // "ggml"
/** ggml tensor types whisper files use: name, bytes per block, values per block. */
const TYPES: Record<number, [string, number, number]> = {
  0: ['F32', 4, 1],
  1: ['F16', 2, 1],
  2: ['Q4_0', 18, 32],
  3: ['Q4_1', 20, 32],
  6: ['Q5_0', 22, 32],
  7: ['Q5_1', 24, 32],
  8: ['Q8_0', 34, 32],
  10: ['Q2_K', 84, 256],
  11: ['Q3_K', 110, 256],
  12: ['Q4_K', 144, 256],
  13: ['Q5_K', 176, 256],
  14: ['Q6_K', 210, 256],
  30: ['BF16', 2, 1],
};
/** The file type (hparams `ftype`) → the type of the big weights. */
const FTYPE_WEIGHTS: Record<number, number> = { 0: 0, 1: 1, 2: 2, 3: 3, 7: 8, 8: 6, 9: 7, 10: 10, 11: 11, 12: 12, 13: 13, 14: 14, 24: 30 };
const SIZES: Record<number, string> = { 4: 'tiny', 6: 'base', 12: 'small', 24: 'medium', 32: 'large' };

interface Hparams {
  n_vocab: number;
  n_audio_ctx: number;
  n_audio_state: number;
  n_audio_head: number;
  n_audio_layer: number;
  n_text_ctx: number;
  n_text_state: number;
  n_text_head: number;
  n_text_layer: number;
  n_mels: number;
  ftype: number;
}

/** Reads a file front to back through a 64 KB window, skipping what it need not see (the weights). */
class Reader {
  at = 0;
  private window = Buffer.alloc(0);
  private windowAt = 0;
  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}
  async bytes(length: number): Promise<Buffer> {
    if (length < 0 || this.at + length > this.size) throw new WhisperFileError('the file ends early (is it complete?)');
    const offset = this.at - this.windowAt;
    if (offset < 0 || offset + length > this.window.length) {
      this.window = Buffer.alloc(Math.max(length, 64 * 1024));
      const { bytesRead } = await this.handle.read(this.window, 0, this.window.length, this.at);
      this.window = this.window.subarray(0, bytesRead);
      this.windowAt = this.at;
    }
    const start = this.at - this.windowAt;
    this.at += length;
    return this.window.subarray(start, start + length);
  }
  async int32(): Promise<number> {
    return (await this.bytes(4)).readInt32LE(0);
  }
  skip(length: number): void {
    if (length < 0 || this.at + length > this.size) throw new WhisperFileError('the file ends early (is it complete?)');
    this.at += length;
  }
}

/** Every tensor whisper.cpp expects, with its shape (ggml order: first dimension = input size) and whether it is a big weight. */
function expectedTensors(h: Hparams): Map<string, { shape: number[]; weight: 'big' | 'conv' | 'f32' }> {
  const s = h.n_audio_state;
  const out = new Map<string, { shape: number[]; weight: 'big' | 'conv' | 'f32' }>();
  const add = (name: string, shape: number[], weight: 'big' | 'conv' | 'f32' = 'f32') => out.set(name, { shape, weight });
  add('encoder.positional_embedding', [s, h.n_audio_ctx]);
  add('encoder.conv1.weight', [3, h.n_mels, s], 'conv');
  add('encoder.conv1.bias', [1, s]);
  add('encoder.conv2.weight', [3, s, s], 'conv');
  add('encoder.conv2.bias', [1, s]);
  add('encoder.ln_post.weight', [s]);
  add('encoder.ln_post.bias', [s]);
  const block = (prefix: string, attentions: string[]) => {
    add(`${prefix}.mlp_ln.weight`, [s]);
    add(`${prefix}.mlp_ln.bias`, [s]);
    add(`${prefix}.mlp.0.weight`, [s, 4 * s], 'big');
    add(`${prefix}.mlp.0.bias`, [4 * s]);
    add(`${prefix}.mlp.2.weight`, [4 * s, s], 'big');
    add(`${prefix}.mlp.2.bias`, [s]);
    for (const a of attentions) {
      add(`${prefix}.${a}_ln.weight`, [s]);
      add(`${prefix}.${a}_ln.bias`, [s]);
      add(`${prefix}.${a}.query.weight`, [s, s], 'big');
      add(`${prefix}.${a}.query.bias`, [s]);
      add(`${prefix}.${a}.key.weight`, [s, s], 'big');
      add(`${prefix}.${a}.value.weight`, [s, s], 'big');
      add(`${prefix}.${a}.value.bias`, [s]);
      add(`${prefix}.${a}.out.weight`, [s, s], 'big');
      add(`${prefix}.${a}.out.bias`, [s]);
    }
  };
  for (let i = 0; i < h.n_audio_layer; i++) block(`encoder.blocks.${i}`, ['attn']);
  add('decoder.positional_embedding', [s, h.n_text_ctx]);
  add('decoder.token_embedding.weight', [s, h.n_vocab], 'big');
  add('decoder.ln.weight', [s]);
  add('decoder.ln.bias', [s]);
  for (let i = 0; i < h.n_text_layer; i++) block(`decoder.blocks.${i}`, ['attn', 'cross_attn']);
  return out;
}

function checkHparams(h: Hparams): void {
  const positive = Object.entries(h).filter(([key, value]) => key !== 'ftype' && !(value > 0));
  if (positive.length > 0) throw new WhisperFileError(`the header has impossible sizes (${positive.map(([k]) => k).join(', ')})`);
  // Special tokens sit at fixed ids from 50256 on, so a smaller vocabulary cannot be decoded.
  if (h.n_vocab < 51864 || h.n_vocab > 60_000) throw new WhisperFileError(`the vocabulary size ${h.n_vocab} is not a whisper vocabulary`);
  if (h.n_audio_state !== h.n_text_state) throw new WhisperFileError('the encoder and decoder widths differ');
  if (h.n_audio_state % h.n_audio_head !== 0 || h.n_text_state % h.n_text_head !== 0) throw new WhisperFileError('the model width is not a multiple of its attention heads');
  if (h.n_audio_ctx > 1500 || h.n_text_ctx > 448) throw new WhisperFileError('the context sizes exceed whisper’s (1500 audio, 448 text)');
  if (h.n_mels !== 80 && h.n_mels !== 128) throw new WhisperFileError(`${h.n_mels} mel bands is not a whisper input (80 or 128)`);
  if (h.n_audio_layer > 64 || h.n_text_layer > 64 || h.n_audio_state > 4096) throw new WhisperFileError('the model is larger than any whisper model');
  if (!(h.ftype % 1000 in FTYPE_WEIGHTS)) throw new WhisperFileError(`unknown weight type ${h.ftype}`);
}

/**
 * Checks a whisper.cpp model file (the legacy ggml format of `ggml-*.bin`) the way whisper.cpp
 * reads it — magic, sizes, mel filters, vocabulary, and every tensor's name, shape, type and
 * length up to the exact end of the file — without reading the weights. whisper.cpp itself
 * accepts a truncated file and asserts (ending the process) on inconsistent sizes, so files are
 * refused here first, with the reason.
 */
export async function readWhisperFile(file: string): Promise<WhisperFileInfo> {
  const handle = await open(file, 'r');
  try {
    const reader = new Reader(handle, (await handle.stat()).size);
    if (reader.size < 64 || (await reader.bytes(4)).readUInt32LE(0) !== MAGIC) throw new WhisperFileError('not a whisper.cpp model file (the ggml magic is missing; GGUF and PyTorch files are other formats)');
    const names = ['n_vocab', 'n_audio_ctx', 'n_audio_state', 'n_audio_head', 'n_audio_layer', 'n_text_ctx', 'n_text_state', 'n_text_head', 'n_text_layer', 'n_mels', 'ftype'] as const;
    const h = {} as Hparams;
    for (const name of names) h[name] = await reader.int32();
    checkHparams(h);
    const weightType = FTYPE_WEIGHTS[h.ftype % 1000]!;
    const convType = weightType === 0 ? 0 : 1;

    const nMel = await reader.int32();
    const nFft = await reader.int32();
    if (nMel !== h.n_mels || nFft !== 201) throw new WhisperFileError(`the mel filters are ${nMel}×${nFft}, expected ${h.n_mels}×201`);
    reader.skip(nMel * nFft * 4);

    const words = await reader.int32();
    if (words < 0 || words > h.n_vocab) throw new WhisperFileError(`the vocabulary lists ${words} tokens for a model of ${h.n_vocab}`);
    for (let i = 0; i < words; i++) {
      const length = (await reader.bytes(4)).readUInt32LE(0);
      if (length > 1024) throw new WhisperFileError(`token ${i} is ${length} bytes long`);
      reader.skip(length);
    }

    const expected = expectedTensors(h);
    const seen = new Set<string>();
    let weightBytes = 0;
    while (reader.at < reader.size) {
      const dims = await reader.int32();
      const nameLength = await reader.int32();
      const type = await reader.int32();
      if (dims < 1 || dims > 4 || nameLength < 1 || nameLength > 256) throw new WhisperFileError(`a tensor header at byte ${reader.at - 12} is damaged`);
      const shape: number[] = [];
      for (let d = 0; d < dims; d++) shape.push(await reader.int32());
      const name = (await reader.bytes(nameLength)).toString('utf8');
      const want = expected.get(name);
      if (!want) throw new WhisperFileError(`unknown tensor '${name}'`);
      if (seen.has(name)) throw new WhisperFileError(`tensor '${name}' appears twice`);
      const padded = [...shape, 1, 1, 1].slice(0, 3);
      const wanted = [...want.shape, 1, 1, 1].slice(0, 3);
      if (padded.join() !== wanted.join()) throw new WhisperFileError(`tensor '${name}' has shape [${shape}], expected [${want.shape}]`);
      const wantType = want.weight === 'big' ? weightType : want.weight === 'conv' ? convType : 0;
      const info = TYPES[type];
      if (!info || type !== wantType) throw new WhisperFileError(`tensor '${name}' has type ${info?.[0] ?? type}, expected ${TYPES[wantType]![0]}`);
      const count = shape.reduce((a, b) => a * b, 1);
      if (count % info[2] !== 0) throw new WhisperFileError(`tensor '${name}' does not fill whole ${info[0]} blocks`);
      const bytes = (count / info[2]) * info[1];
      reader.skip(bytes);
      weightBytes += bytes;
      seen.add(name);
    }
    const missing = [...expected.keys()].filter((name) => !seen.has(name));
    if (missing.length > 0) throw new WhisperFileError(`${missing.length} tensor(s) are missing, such as '${missing[0]}' (is the file complete?)`);
    return {
      size: (SIZES[h.n_audio_layer] && h.n_audio_state >= 384 ? SIZES[h.n_audio_layer] : undefined) ?? 'custom',
      multilingual: h.n_vocab >= 51865,
      quantization: TYPES[weightType]![0],
      // whisper.cpp's KV caches and compute buffers add roughly 15 MB per layer of width 512.
      ram_estimate: Math.round(weightBytes + 64 * 1024 * 1024 + (h.n_audio_layer + h.n_text_layer) * h.n_audio_state * 30_000),
    };
  } finally {
    await handle.close();
  }
}

/** Whether a file starts with the ggml magic of whisper.cpp model files (GGUF files do not). */
export async function isWhisperFile(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === MAGIC;
  } finally {
    await handle.close();
  }
}
