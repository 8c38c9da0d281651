import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyWhisper } from '../../../test/fixtures/tiny-whisper';
import pino from 'pino';
import { createLocalStt, type LocalStt } from './local-stt';

const fixtures = path.join(import.meta.dirname, '../../../test/fixtures/audio');
const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-local-stt-'));
let stt: LocalStt;
let model: { id: string; path: string };
const options = { threads: 1, maxSeconds: 300 };

beforeAll(() => {
  model = { id: 'tiny', path: writeTinyWhisper(path.join(dir, 'tiny.bin')) };
  stt = createLocalStt({ log: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await stt.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `seconds` of the fixture sentence, repeated. */
function longWav(seconds: number): Uint8Array {
  const wav = readFileSync(path.join(fixtures, 'hello.wav'));
  const pcm = wav.subarray(44);
  const repeats = Math.ceil((seconds * 32000) / pcm.length);
  const body = Buffer.concat(Array.from({ length: repeats }, () => pcm));
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + body.length, 4);
  header.writeUInt32LE(body.length, 40);
  return Buffer.concat([header, body]);
}

describe('local speech-to-text (whisper.cpp on a worker thread)', () => {
  it('transcribes each format a browser or a script sends with a loaded model', async () => {
    for (const format of ['wav', 'mp3', 'ogg', 'opus', 'flac']) {
      const result = await stt.transcribe(model, readFileSync(path.join(fixtures, `hello.${format}`)), options);
      // A random model hears gibberish, but it hears it in the whole clip.
      expect(typeof result.text, format).toBe('string');
      expect(result.duration, format).toBeGreaterThan(3.2);
      expect(result.duration, format).toBeLessThan(3.6);
      expect(result.segments.length, format).toBeGreaterThan(0);
    }
  }, 120_000);

  it('stops a long transcription when cancelled (after the window in progress), and takes the next one', async () => {
    const windowStarted = Date.now();
    await stt.transcribe(model, longWav(29), options);
    const oneWindow = Date.now() - windowStarted;
    const controller = new AbortController();
    const started = Date.now();
    const running = stt.transcribe(model, longWav(90), options, controller.signal);
    setTimeout(() => controller.abort(), 300);
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    // The whole recording is three windows; the cancel lands after the first.
    expect(Date.now() - started).toBeLessThan(oneWindow * 2);
    const next = await stt.transcribe(model, readFileSync(path.join(fixtures, 'hello.wav')), options);
    expect(next.duration).toBeGreaterThan(3);
  }, 120_000);

  it('refuses recordings it cannot decode or that are too long, naming the problem', async () => {
    await expect(stt.transcribe(model, Buffer.from('not audio at all, just text'), options)).rejects.toMatchObject({ code: 'audio', message: expect.stringMatching(/not audio in a format/) });
    await expect(stt.transcribe(model, Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(64)]), options)).rejects.toMatchObject({ code: 'audio', message: expect.stringMatching(/M4A/) });
    await expect(stt.transcribe(model, longWav(20), { ...options, maxSeconds: 10 })).rejects.toMatchObject({ code: 'too-long' });
  }, 60_000);

  it('refuses a model file whisper.cpp cannot load, and keeps working', async () => {
    const broken = path.join(dir, 'broken.bin');
    rmSync(broken, { force: true });
    await import('node:fs/promises').then((fs) => fs.writeFile(broken, Buffer.from('GGUF and then nothing useful')));
    await expect(stt.probe(broken, 1)).rejects.toMatchObject({ code: 'load', message: expect.stringMatching(/could not load/) });
    await expect(stt.transcribe({ id: 'broken', path: broken }, readFileSync(path.join(fixtures, 'hello.wav')), options)).rejects.toMatchObject({ code: 'load' });
    await stt.probe(model.path, 1);
    expect((await stt.transcribe(model, readFileSync(path.join(fixtures, 'hello.wav')), options)).duration).toBeGreaterThan(3);
  }, 60_000);
});
