/**
 * Parley as a child process for benchmarks, started from source (no build needed, so a
 * concurrent rebuild of dist/ cannot break a run). Settings come from the environment as for the
 * CLI; the data dir is the first argument. Prints `Parley listening on <url>`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer } from '../../server/start';

const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: process.argv[2], logToStdout: false });
console.log(`Parley listening on ${server.url}`);
exitWithParent(() => server.close());
answerLoopDelay();
answerProfiles();
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});

/** Exits when the benchmark that started this process is gone, so no child outlives a crashed run. */
function exitWithParent(close: () => Promise<void>): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void close().finally(() => process.exit(0));
  }, 500).unref();
}

/**
 * With an IPC channel (a benchmark forked this process): `{type: 'loop-delay-reset'}` starts a
 * new event-loop delay histogram, `{type: 'loop-delay-report'}` answers its percentiles in ms
 * and stops measuring. Measuring only between the two matters: the histogram's timer wakes
 * this process every millisecond, which on a busy machine takes CPU from whatever the
 * benchmark compares the service with.
 */
function answerLoopDelay(): void {
  if (!process.send) return;
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'loop-delay-reset') {
      histogram.reset();
      histogram.enable();
    }
    if (message?.type === 'loop-delay-report') {
      histogram.disable();
      const ms = (ns: number) => ns / 1e6;
      process.send?.({ type: 'loop-delay', p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), count: histogram.count });
    }
  });
  process.channel?.unref();
}

/**
 * With an IPC channel: `{type: 'profile-start'}` starts V8's CPU profiler (answering
 * `{type: 'profile-started'}`), `{type: 'profile-stop',
 * file}` stops it, writes the profile to `file` (a `.cpuprofile` Chrome DevTools and
 * `bench/lib/cpu-profile.ts` read) and answers `{type: 'profile-written', file}`. A benchmark
 * profiles one phase this way (what `--cpu-prof` gives for the whole process).
 */
function answerProfiles(): void {
  if (!process.send) return;
  // Connected at the first profile only: a run that never profiles keeps the process as it was.
  let session: Session | undefined;
  process.on('message', (message: { type?: string; file?: string }) => {
    if (message?.type === 'profile-start') {
      if (!session) {
        session = new Session();
        session.connect();
      }
      const active = session;
      void active
        .post('Profiler.enable')
        .then(() => active.post('Profiler.start'))
        .then(() => process.send?.({ type: 'profile-started' }));
    }
    if (message?.type === 'profile-stop' && message.file && session) {
      const file = message.file;
      void session.post('Profiler.stop').then(({ profile }) => {
        writeFileSync(file, JSON.stringify(profile));
        process.send?.({ type: 'profile-written', file });
      });
    }
  });
}
