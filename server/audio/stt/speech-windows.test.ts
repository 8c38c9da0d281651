import { describe, expect, it } from 'vitest';
import { speechWindows } from './speech-windows';

describe('speech windows', () => {
  it('keeps a short recording whole', () => {
    expect(speechWindows(new Float32Array(16000 * 12))).toEqual([{ start: 0, end: 16000 * 12 }]);
  });

  it('cuts a long recording in the pause nearest the end of each 30 s window', () => {
    const samples = new Float32Array(16000 * 70).map((_, i) => Math.sin(i / 3));
    // A pause at 25 s.
    samples.fill(0, 16000 * 25, 16000 * 25.2);
    const windows = speechWindows(samples);
    expect(windows[0]!.end / 16000).toBeGreaterThanOrEqual(25);
    expect(windows[0]!.end / 16000).toBeLessThanOrEqual(25.2);
    expect(windows.at(-1)!.end).toBe(samples.length);
    for (const w of windows) expect(w.end - w.start).toBeLessThanOrEqual(16000 * 30);
    windows.slice(1).forEach((w, i) => expect(w.start).toBe(windows[i]!.end));
  });
});
