import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/** The parts of a V8 `.cpuprofile` read here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** One function's own time (not its callees') in a profile. */
export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

/**
 * True for a sample of a process waiting for work: `(idle)`, and the inspector session's native
 * `dispatch` (no script), under which an in-process profile (`profileChild`) files its idle time.
 */
function isIdle(frame: { functionName: string; url: string }): boolean {
  return frame.functionName === '(idle)' || (frame.functionName === 'dispatch' && frame.url === '');
}

/** The functions with the most own time in a `.cpuprofile` file, idle time left out, most first. */
export function topSelfTimes(file: string, count = 12): SelfTime[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byName = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id);
    if (!frame || isIdle(frame)) return;
    const us = profile.timeDeltas[i] ?? 0;
    const where = frame.url ? ` ${frame.url.replace(/^.*\/(node_modules|server)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    byName.set(name, (byName.get(name) ?? 0) + us);
    total += us;
  });
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, ms: us / 1000, share: total > 0 ? us / total : 0 }));
}

/**
 * Profiles what `work` makes the service child do (its CPU profiler, over the IPC channel
 * `bench/lib/server-child.ts` answers on) and writes the profile to `file`.
 */
export async function profileChild<T>(child: ChildProcess, file: string, work: () => Promise<T>): Promise<T> {
  const answer = (type: string) =>
    new Promise<void>((resolve) => {
      const onMessage = (message: { type?: string }) => {
        if (message?.type !== type) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
    });
  const started = answer('profile-started');
  child.send({ type: 'profile-start' });
  await started;
  const result = await work();
  const written = answer('profile-written');
  child.send({ type: 'profile-stop', file });
  await written;
  return result;
}
