import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tinyWhisper } from '../../test/fixtures/tiny-whisper';
import { readWhisperFile } from './whisper-file';

const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-whisper-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, bytes: Buffer) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
};

describe('whisper model files', () => {
  it('reads what a whisper.cpp model file says about itself', async () => {
    const info = await readWhisperFile(write('good.bin', tinyWhisper()));
    expect(info).toMatchObject({ size: 'custom', multilingual: true, quantization: 'F16' });
    expect(info.ram_estimate).toBeGreaterThan(64 * 1024 * 1024);
    expect((await readWhisperFile(write('en.bin', tinyWhisper({ vocab: 51864, ftype: 0 })))).multilingual).toBe(false);
  });

  it('refuses a file cut short, which whisper.cpp itself would load', async () => {
    const bytes = tinyWhisper();
    await expect(readWhisperFile(write('cut.bin', bytes.subarray(0, bytes.length - 1000)))).rejects.toThrow(/ends early|missing/);
  });

  it('refuses sizes that would make whisper.cpp abort the process', async () => {
    await expect(readWhisperFile(write('heads.bin', tinyWhisper({ hparams: { 3: 3 } })))).rejects.toThrow(/multiple of its attention heads/);
    await expect(readWhisperFile(write('vocab.bin', tinyWhisper({ vocab: 1000 })))).rejects.toThrow(/not a whisper vocabulary/);
    await expect(readWhisperFile(write('width.bin', tinyWhisper({ hparams: { 6: 16 } })))).rejects.toThrow(/widths differ/);
  });

  it('refuses files of other formats with what they are not', async () => {
    await expect(readWhisperFile(write('gguf.bin', Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(100)])))).rejects.toThrow(/ggml magic/);
    await expect(readWhisperFile(write('empty.bin', Buffer.alloc(0)))).rejects.toThrow(/ggml magic/);
  });
});
