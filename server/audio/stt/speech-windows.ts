import { WHISPER_RATE } from '../decode/resample';

/** Whisper hears 30 s at a time. */
const WINDOW_SECONDS = 30;
/** A cut is looked for in the last third of each window. */
const SEARCH_FROM_SECONDS = 20;
/** The loudness of a cut is measured over 50 ms. */
const FRAME = WHISPER_RATE / 20;

/**
 * Splits speech (16 kHz mono) into windows of at most 30 s, cutting each in its quietest 50 ms
 * between 20 and 30 s so that words are not split. Whisper.cpp does the same windowing inside one
 * call; doing it here lets a cancel take effect between windows.
 */
export function speechWindows(samples: Float32Array): Array<{ start: number; end: number }> {
  const windows: Array<{ start: number; end: number }> = [];
  const max = WINDOW_SECONDS * WHISPER_RATE;
  let start = 0;
  while (samples.length - start > max) {
    let best = start + max;
    let quietest = Infinity;
    for (let at = start + SEARCH_FROM_SECONDS * WHISPER_RATE; at + FRAME <= start + max; at += FRAME) {
      let energy = 0;
      for (let i = at; i < at + FRAME; i++) energy += samples[i]! * samples[i]!;
      if (energy < quietest) {
        quietest = energy;
        best = at + FRAME / 2;
      }
    }
    windows.push({ start, end: best });
    start = best;
  }
  windows.push({ start, end: samples.length });
  return windows;
}
