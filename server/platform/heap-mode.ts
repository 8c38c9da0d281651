import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * How much memory V8 may hold beyond what the service keeps. `small` (the default) lets the heap
 * grow by 40 % between two full collections (`--heap-growing-percent=40`) and keeps the young
 * generation, where every request's short-lived objects are born, at 8 MB instead of V8's 32 MB.
 * `fast`: V8's own choices, for a machine with memory to spare. Measured in docs/performance.md:
 * under `bench:load` the peak is about 150 MB with `small` against 300 MB with V8's own; a
 * tighter 10 % growth cost a third of a streamed answer's throughput, `--optimize-for-size` half.
 */
export const HEAP_MODES = ['small', 'fast'] as const;

export type HeapMode = (typeof HEAP_MODES)[number];

interface HeapSettings {
  /** V8's growing factor is 1 + this / 100; 0 leaves the factor to V8. */
  growingPercent: number;
  /** Both semi-spaces of the young generation together, in bytes; 0 leaves their size to V8. */
  youngGenerationCap: number;
}

const SETTINGS: Record<HeapMode, HeapSettings> = {
  small: { growingPercent: 40, youngGenerationCap: 8 * 1024 * 1024 },
  fast: { growingPercent: 0, youngGenerationCap: 0 },
};

/** V8's own factor by which the young generation doubles when most of it survives a collection. */
const V8_SEMI_SPACE_GROWTH = 2;

/** The young generation's size now (`new_space`: both semi-spaces), in bytes. */
export function youngGenerationSize(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Keeps the young generation at or below `cap`. V8 fixes its ceiling (`--max-semi-space-size`)
 * when the process starts, which the desktop app's main process cannot choose; but it reads its
 * growth factor each time it grows the young generation. After each collection, the factor is 1
 * (no growth) once the young generation has reached the cap, and V8's own below it, so it grows
 * to the cap and no further; if it was already larger, V8 shrinks it when the service is idle and
 * it stays within the cap from then on.
 */
export function capYoungGeneration(cap: number, setFlags: (flags: string) => void, sizeNow: () => number = youngGenerationSize): { check(): void; stop(): void } {
  let factor = 0;
  const check = () => {
    const wanted = sizeNow() >= cap ? 1 : V8_SEMI_SPACE_GROWTH;
    if (wanted === factor) return;
    setFlags(`--semi-space-growth-factor=${wanted}`);
    factor = wanted;
  };
  check();
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  return { check, stop: () => observer.disconnect() };
}

let applied: { mode: HeapMode; youngCap?: { stop(): void } } | undefined;

/**
 * Sets the heap's limits for this process: in `npm run serve` and in the desktop app's main
 * process alike, whose V8 is already running (Node and Electron both leave its flags writable).
 * V8 reads these flags each time it sizes the heap after a collection; set once per change.
 */
export function applyHeapMode(mode: HeapMode, setFlags: (flags: string) => void = v8.setFlagsFromString): void {
  if (applied?.mode === mode) return;
  applied?.youngCap?.stop();
  const settings = SETTINGS[mode];
  setFlags(`--heap-growing-percent=${settings.growingPercent}`);
  if (settings.youngGenerationCap > 0) applied = { mode, youngCap: capYoungGeneration(settings.youngGenerationCap, setFlags) };
  else {
    setFlags(`--semi-space-growth-factor=${V8_SEMI_SPACE_GROWTH}`);
    applied = { mode };
  }
}
