/**
 * Coalesces generated text before it crosses the process boundary. The first piece leaves at
 * once (time to first token), later pieces at most every `intervalMs`, and `flush()` sends what
 * is left when the answer ends. A small model makes a token every millisecond or two; sending
 * each one as its own IPC message, SSE frame and socket write cost the service and the client
 * more CPU than the model itself on a busy machine, while a person cannot see 10 ms of grouping.
 * Real models (20–100 ms a token) are never grouped.
 */
export function createChunkBatcher(send: (text: string) => void, intervalMs: number, now: () => number = () => performance.now()) {
  let pending = '';
  let lastSent = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const text = pending;
    pending = '';
    lastSent = now();
    send(text);
  }

  return {
    /** A new piece of text. */
    push(text: string): void {
      pending += text;
      if (timer) return;
      const wait = lastSent + intervalMs - now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    /** Sends what is left now (the answer ended or failed). */
    flush,
  };
}
