import v8 from 'node:v8';

/**
 * How far V8 lets the service's heap grow between two full collections. `small` (the default):
 * by 60 % (`--heap-growing-percent=60`), so an office's burst of chats leaves Parley about 100 MB
 * smaller at its peak than V8's own growth (up to four times the live heap when collections are
 * quick). `fast`: V8's own choice, for a machine with memory to spare. Measured in
 * docs/performance.md: a tighter 10 % cut the peak further but cost a third of a streamed answer's
 * throughput; `--optimize-for-size` halved it.
 */
export const HEAP_MODES = ['small', 'fast'] as const;

export type HeapMode = (typeof HEAP_MODES)[number];

/** V8's growing factor is 1 + this / 100; 0 leaves the factor to V8. */
const GROWING_PERCENT: Record<HeapMode, number> = { small: 60, fast: 0 };

let applied: HeapMode | undefined;

/**
 * Sets the heap's growth for this process: in `npm run serve` and in the desktop app's main
 * process alike, whose V8 is already running (Node and Electron both leave its flags writable).
 * V8 reads this flag each time it sizes the heap after a collection; set once per change.
 */
export function applyHeapMode(mode: HeapMode, setFlags: (flags: string) => void = v8.setFlagsFromString): void {
  if (applied === mode) return;
  setFlags(`--heap-growing-percent=${GROWING_PERCENT[mode]}`);
  applied = mode;
}
