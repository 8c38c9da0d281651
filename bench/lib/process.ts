import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A child service started for a benchmark. */
export interface StartedChild {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first 200 on /health. */
  startMs: number;
  /**
   * Milliseconds from spawn to the first answer of the service itself (`GET /api/config`, which
   * waits while Parley upgrades its database and builds its services); the control's is its /health.
   */
  readyMs: number;
  stop(): Promise<void>;
}

/** Resident set size of a process in MB (Linux /proc), or NaN elsewhere. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/**
 * Spawns `node args…`, waits for a line `… listening on http://…` (or Parley's earlier `… starting
 * on http://…`, printed once its port is open), then polls /health until the first 200, and
 * reports the time from spawn to that answer, and to the service's first answer of its own. With `ipc`, the child gets an
 * IPC channel (the server child then answers event-loop delay questions on it).
 */
export function startChild(args: string[], env: NodeJS.ProcessEnv = {}, options: { ipc?: boolean } = {}): Promise<StartedChild> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    let errors = '';
    const fail = (why: string) => {
      child.kill('SIGKILL');
      reject(new Error(`${why}\n${errors}`));
    };
    const timer = setTimeout(() => fail('did not start within 30 s'), 30_000);
    child.stderr?.on('data', (d: Buffer) => {
      errors += d.toString();
    });
    child.on('exit', (code) => fail(`exited early with ${code}`));
    child.stdout?.on('data', async (d: Buffer) => {
      buffer += d.toString();
      const match = /(?:listening|starting) on (http:\/\/[^\s]+)/.exec(buffer);
      if (!match) return;
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      const url = match[1] as string;
      for (;;) {
        try {
          const res = await fetch(`${url}/health`);
          if (res.status === 200) break;
        } catch {
          // not ready yet
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      const startMs = performance.now() - started;
      // Parley holds requests other than /health until it is ready; the controls are ready with their /health.
      const parley = /starting on/.test(buffer);
      while (parley) {
        const res = await fetch(`${url}/api/config`).catch(() => undefined);
        await res?.arrayBuffer();
        if (res?.status === 200) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      const readyMs = parley ? performance.now() - started : startMs;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        child,
        url,
        startMs,
        readyMs,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The p-th percentile (0..100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

/** Starts a script of bench/lib that prints `… listening on <url>` (fake providers, relays); stops it with SIGTERM. */
export function startListening(script: string, args: string[] = []): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        child.removeAllListeners('exit');
        resolve({ url: match[1]!, pid: child.pid as number, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}
