/**
 * Speech benchmark. Run with `npm run bench:audio`.
 *
 * 1. Local transcription: the same whisper.cpp model and clip through Parley's engine (the
 *    upload's bytes → decoding → the speech worker thread → @fugood/whisper.node, as
 *    POST /api/v1/audio/transcriptions runs it) and through the binding called directly on
 *    already decoded 16 kHz PCM, alternating in one run with the same threads. Printed as
 *    milliseconds of work per second of audio; target Parley ≥ 0.95× the direct speed.
 * 2. The event loop's delay (p99) on the service's thread while the worker transcribes; target ≤ 20 ms.
 * 3. Read-aloud's first audio with the offline voice: espeak-ng speaking an answer's first
 *    sentence (what the UI asks for first); target ≤ 300 ms.
 *
 * The model is generated (test/fixtures/tiny-whisper.ts, 256 wide, 2 layers, its decoder ending
 * at once as a real model's does after a short transcript; random weights would decode 448 tokens
 * of gibberish at five temperatures, minutes per clip) or given with BENCH_WHISPER=/path/to/ggml-base.bin; the clip is the fixture sentence repeated to
 * BENCH_CLIP_SECONDS (default 20). A small model makes Parley's own costs (decoding, copying to
 * the worker) show larger than with a real one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { writeTinyWhisper } from '../test/fixtures/tiny-whisper';
import { decodeSpeech } from '../server/audio/decode/decode-audio';
import { toInt16 } from '../server/audio/decode/resample';
import { createLocalStt } from '../server/audio/stt/local-stt';
import { espeakSpeak, findEspeak } from '../server/audio/tts/espeak';
import { median, percentile } from './lib/process';

const root = path.resolve(import.meta.dirname, '..');
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CLIP_SECONDS = Number(process.env.BENCH_CLIP_SECONDS ?? 20);
const SPEECH_RUNS = Number(process.env.BENCH_SPEECH_RUNS ?? 10);

/** The fixture sentence repeated to `seconds`, as a WAV upload. */
function clip(seconds: number): Buffer {
  const wav = readFileSync(path.join(root, 'test/fixtures/audio/hello.wav'));
  const pcm = wav.subarray(44);
  const body = Buffer.concat(Array.from({ length: Math.ceil((seconds * 32000) / pcm.length) }, () => pcm));
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + body.length, 4);
  header.writeUInt32LE(body.length, 40);
  return Buffer.concat([header, body]);
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-audio-'));
  const stt = createLocalStt({ log: pino({ level: 'silent' }) });
  try {
    const modelPath = process.env.BENCH_WHISPER ?? writeTinyWhisper(path.join(dir, 'bench.bin'), { width: 256, heads: 4, layers: 2, endAtOnce: true });
    const upload = clip(CLIP_SECONDS);
    const speech = await decodeSpeech(upload);
    const pcm = toInt16(speech.samples);
    const seconds = speech.seconds;
    console.log(`model ${process.env.BENCH_WHISPER ?? 'generated (256 wide, 2 layers)'}, clip ${fmt(seconds)} s, ${THREADS} thread(s), ${ROUNDS} rounds`);

    const { initWhisper } = await import('@fugood/whisper.node');
    const direct = await initWhisper({ filePath: modelPath, useGpu: false });
    const model = { id: 'bench', path: modelPath };
    const options = { threads: THREADS, maxSeconds: 3600 };
    const runDirect = async () => {
      const started = performance.now();
      const buffer = pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength) as ArrayBuffer;
      await direct.transcribeData(buffer, { language: 'auto', maxThreads: THREADS, temperature: 0 }).promise;
      return performance.now() - started;
    };
    // One monitor per Parley run (a monitor enabled again after a pause counts the pause, the
    // direct runs between, as one long delay); the worst run's p99 and max are reported.
    const loop = { p99: [] as number[], max: [] as number[], reset: () => ((loop.p99 = []), (loop.max = [])) };
    const runParley = async () => {
      const started = performance.now();
      const monitor = monitorEventLoopDelay({ resolution: 1 });
      monitor.enable();
      await stt.transcribe(model, upload, options);
      monitor.disable();
      loop.p99.push(monitor.percentile(99) / 1e6);
      loop.max.push(monitor.max / 1e6);
      return performance.now() - started;
    };
    // Warm both (model loads, worker start, WASM decoders).
    await runDirect();
    await runParley();
    loop.reset();

    const directMs: number[] = [];
    const parleyMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        directMs.push(await runDirect());
        parleyMs.push(await runParley());
      } else {
        parleyMs.push(await runParley());
        directMs.push(await runDirect());
      }
    }
    await direct.release();
    const perSecond = (ms: number[]) => median(ms) / seconds;
    const ratio = median(directMs) / median(parleyMs);
    console.log('\n| row | direct | Parley | target | result |');
    console.log('|---|---|---|---|---|');
    console.log(`| transcription, ms of work per audio second (median) | ${fmt(perSecond(directMs))} | ${fmt(perSecond(parleyMs))} | Parley ≥ 0.95× direct speed | ${fmt(ratio, 2)}× ${ratio >= 0.95 ? 'met' : 'MISSED'} |`);
    const p99 = Math.max(...loop.p99);
    console.log(`| event-loop delay p99 while transcribing (worst run) | — | ${fmt(p99)} ms (max ${fmt(Math.max(...loop.max))} ms) | ≤ 20 ms | ${p99 <= 20 ? 'met' : 'MISSED'} |`);

    const espeak = findEspeak();
    if (!espeak) {
      console.log('| read-aloud first audio (offline voice) | — | espeak-ng not installed | ≤ 300 ms | not measured |');
    } else {
      const first = 'Brew green tea at 80 °C for two to three minutes.';
      await espeakSpeak(espeak, { text: first, voice: 'en', speed: 1, format: 'wav' });
      const firstMs: number[] = [];
      for (let i = 0; i < SPEECH_RUNS; i++) {
        const started = performance.now();
        await espeakSpeak(espeak, { text: first, voice: 'en', speed: 1, format: 'wav' });
        firstMs.push(performance.now() - started);
      }
      console.log(`| read-aloud first audio (offline voice, first sentence) | — | median ${fmt(median(firstMs))} ms, p95 ${fmt(percentile(firstMs, 95))} ms | ≤ 300 ms | ${percentile(firstMs, 95) <= 300 ? 'met' : 'MISSED'} |`);
    }
    console.log(`\nper-run ms: direct ${directMs.map((v) => fmt(v, 0)).join(', ')}; Parley ${parleyMs.map((v) => fmt(v, 0)).join(', ')}; load ${os.loadavg().map((v) => fmt(v, 2)).join(' ')}`);
  } finally {
    await stt.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
