import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeSpeech } from './decode-audio';

const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures/audio');

/** Loudness per 50 ms of 16 kHz samples. */
function envelope(samples: Float32Array): number[] {
  const step = 800;
  const out: number[] = [];
  for (let at = 0; at + step <= samples.length; at += step) {
    let sum = 0;
    for (let i = at; i < at + step; i++) sum += samples[i]! * samples[i]!;
    out.push(Math.sqrt(sum / step));
  }
  return out;
}

/** Pearson correlation of `a` against `b` shifted by `lag` blocks, over the overlap. */
function correlation(a: number[], b: number[], lag: number): number {
  const n = Math.min(a.length, b.length - lag);
  const x = a.slice(0, n);
  const y = b.slice(lag, lag + n);
  const mean = (v: number[]) => v.reduce((s, e) => s + e, 0) / v.length;
  const mx = mean(x);
  const my = mean(y);
  let num = 0;
  let dx = 0;
  let dy = 0;
  for (let i = 0; i < n; i++) {
    num += (x[i]! - mx) * (y[i]! - my);
    dx += (x[i]! - mx) ** 2;
    dy += (y[i]! - my) ** 2;
  }
  return num / Math.sqrt(dx * dy);
}

describe('a browser recording', () => {
  // hello.webm is what Chromium's MediaRecorder made of hello.wav played into its fake microphone
  // (test/fixtures/audio/record-webm.mjs): WebM/Opus as browsers send it, with live-stream
  // clusters of unknown size and no duration in its header.
  it('decodes Chromium MediaRecorder WebM/Opus to the speech that was spoken into it', async () => {
    const spoken = await decodeSpeech(readFileSync(path.join(fixtures, 'hello.wav')));
    const recorded = await decodeSpeech(readFileSync(path.join(fixtures, 'hello.webm')));
    // Recorded for 3.8 s; the recorder starts a moment late and stops a moment early.
    expect(recorded.seconds).toBeGreaterThan(3);
    expect(recorded.seconds).toBeLessThan(4.5);
    const said = envelope(spoken.samples);
    const heard = envelope(recorded.samples);
    // The same words, loud and quiet in the same places, somewhere within the first second.
    const best = Math.max(...Array.from({ length: 20 }, (_, lag) => correlation(said, heard, lag)));
    expect(best).toBeGreaterThan(0.8);
  });
});
