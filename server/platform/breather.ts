/** Hands the event loop back to requests now and then during long work on the service's thread. */
export type Breathe = () => Promise<void>;

/** A {@link Breathe} that yields (one turn of the event loop) once `budgetMs` of work went by since the last yield. */
export function breatherEvery(budgetMs: number): Breathe {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
