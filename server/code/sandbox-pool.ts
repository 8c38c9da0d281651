import { createPythonSandbox, type PythonSandbox } from '../tools';
import type { Logger } from '../platform/log';

interface Entry {
  sandbox: PythonSandbox;
  lastUsed: number;
  busy: number;
}

/**
 * One Python sandbox (its own worker thread) per person running code, so one person's code
 * never shares an interpreter, files or variables with another's. At most `max()` are kept:
 * a new person takes the place of the one idle longest; when all are busy, they wait for one.
 * Sandboxes idle for `idleMs` are stopped to give their memory back.
 */
export function createSandboxPool(deps: { log: Logger; max: () => Promise<number>; idleMs?: number; create?: () => PythonSandbox }) {
  const idleMs = deps.idleMs ?? 10 * 60_000;
  const create = deps.create ?? (() => createPythonSandbox({ log: deps.log }));
  const entries = new Map<string, Entry>();
  const waiters: Array<() => void> = [];
  let closed = false;

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [user, entry] of entries) {
      if (entry.busy === 0 && now - entry.lastUsed > idleMs) {
        entries.delete(user);
        void entry.sandbox.close();
      }
    }
  }, Math.min(idleMs, 60_000));
  sweep.unref();

  function release(): void {
    waiters.splice(0).forEach((wake) => wake());
  }

  async function acquire(userId: string): Promise<Entry> {
    for (;;) {
      if (closed) throw new Error('The code sandboxes are shut down');
      const own = entries.get(userId);
      if (own) return own;
      if (entries.size < (await deps.max())) {
        const entry: Entry = { sandbox: create(), lastUsed: Date.now(), busy: 0 };
        entries.set(userId, entry);
        return entry;
      }
      let oldest: [string, Entry] | undefined;
      for (const pair of entries) if (pair[1].busy === 0 && (!oldest || pair[1].lastUsed < oldest[1].lastUsed)) oldest = pair;
      if (oldest) {
        entries.delete(oldest[0]);
        void oldest[1].sandbox.close();
        continue;
      }
      await new Promise<void>((wake) => waiters.push(wake));
    }
  }

  return {
    /** Runs `work` with the person's sandbox (created, or waited for, as needed). */
    async use<T>(userId: string, work: (sandbox: PythonSandbox) => Promise<T>): Promise<T> {
      const entry = await acquire(userId);
      entry.busy += 1;
      try {
        return await work(entry.sandbox);
      } finally {
        entry.busy -= 1;
        entry.lastUsed = Date.now();
        release();
      }
    },
    /** Starts the person's sandbox ahead of their first run (Pyodide takes a second or more to load). */
    warm(userId: string): void {
      void this.use(userId, (sandbox) => sandbox.warm()).catch((error: unknown) => deps.log.warn({ err: error }, 'warming the code sandbox failed'));
    },
    /** How many sandboxes are kept now. */
    get size(): number {
      return entries.size;
    },
    /** Stops every sandbox. */
    async close(): Promise<void> {
      closed = true;
      clearInterval(sweep);
      release();
      await Promise.all([...entries.values()].map((entry) => entry.sandbox.close()));
      entries.clear();
    },
  };
}
export type SandboxPool = ReturnType<typeof createSandboxPool>;
