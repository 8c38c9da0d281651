import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { toInt16, toMono } from '../decode/resample';
import { decodeWav, encodeWav } from '../decode/wav';

/** One espeak-ng voice. */
export interface EspeakVoice {
  /** What `-v` takes: a language code such as `en-us`. */
  id: string;
  name: string;
  language: string;
}

const NAMES = process.platform === 'win32' ? ['espeak-ng.exe', 'espeak.exe'] : ['espeak-ng', 'espeak'];
const WINDOWS_DIRS = ['C:\\Program Files\\eSpeak NG', 'C:\\Program Files (x86)\\eSpeak NG'];

/**
 * Where the espeak-ng program is: `PARLEY_ESPEAK_PATH`, else the first `espeak-ng` (or `espeak`)
 * on the PATH (and eSpeak NG's installer folders on Windows). Parley runs it as a separate
 * program and does not ship it (espeak-ng is GPL-3.0).
 */
export function findEspeak(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PARLEY_ESPEAK_PATH) return existsSync(env.PARLEY_ESPEAK_PATH) ? env.PARLEY_ESPEAK_PATH : undefined;
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), ...(process.platform === 'win32' ? WINDOWS_DIRS : [])];
  for (const dir of dirs) for (const name of NAMES) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

/** Runs espeak-ng with `args`, `input` on its stdin; resolves with its stdout. */
function run(bin: string, args: string[], input: string, signal?: AbortSignal, timeoutMs = 20_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'], signal, timeout: timeoutMs, windowsHide: true });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-500);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`espeak-ng stopped with code ${code}${err ? `: ${err.trim()}` : ''}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** The voices the installed espeak-ng has (`espeak-ng --voices`). */
export async function espeakVoices(bin: string): Promise<EspeakVoice[]> {
  const text = (await run(bin, ['--voices'], '')).toString('utf8');
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 4)
    .map((cols) => ({ id: cols[1]!, language: cols[1]!, name: cols[3]!.replace(/_/g, ' ') }));
}

/**
 * Speaks `text` with espeak-ng: the text goes on stdin (never the command line, and never read
 * as SSML or markup), the WAV comes back on stdout with its sizes put right (espeak-ng writing
 * to a pipe cannot). `pcm` is OpenAI's raw format: 24 kHz 16-bit mono.
 */
export async function espeakSpeak(bin: string, options: { text: string; voice: string; speed: number; format: 'wav' | 'pcm'; signal?: AbortSignal }): Promise<Buffer> {
  const wordsPerMinute = String(Math.round(Math.min(450, Math.max(80, 175 * options.speed))));
  const wav = await run(bin, ['-v', options.voice || 'en', '-s', wordsPerMinute, '-b', '1', '--stdout'], options.text, options.signal);
  const audio = decodeWav(wav);
  if (options.format === 'pcm') {
    const pcm = toInt16(toMono(audio, 24_000));
    return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  }
  return encodeWav(toInt16(toMono(audio, audio.sampleRate)), audio.sampleRate);
}
