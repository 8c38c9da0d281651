import { readdirSync, readFileSync } from 'node:fs';

/** CPU time a process has run and time its threads waited for a core, in ms (Linux). */
export interface CpuTime {
  runMs: number;
  waitMs: number;
}

/**
 * Sums /proc/<pid>/task/<tid>/schedstat over the process's threads (nanosecond counters: time
 * on a CPU, time runnable but waiting for one). NaN where /proc is missing (not Linux). Threads
 * that ended between two readings drop out of the sum, so compare readings around work done by
 * long-lived threads (a runtime's compute thread, an event loop).
 */
export function cpuTime(pid: number): CpuTime {
  try {
    let run = 0;
    let wait = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      run += onCpu!;
      wait += waiting!;
    }
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return { runMs: Number.NaN, waitMs: Number.NaN };
  }
}

/** The difference of two readings. */
export const cpuSince = (before: CpuTime, after: CpuTime): CpuTime => ({ runMs: after.runMs - before.runMs, waitMs: after.waitMs - before.waitMs });

/** The pid of a process's direct child whose command line contains `match` (Linux), e.g. the runtime the service started. */
export function childPid(pid: number, match: string): number | undefined {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return children.find((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(match));
  } catch {
    return undefined;
  }
}
