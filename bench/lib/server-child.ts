/**
 * Parley as a child process for benchmarks, started from source (no build needed, so a
 * concurrent rebuild of dist/ cannot break a run). Settings come from the environment as for the
 * CLI; the data dir is the first argument. Prints `Parley listening on <url>`.
 */
import { startServer } from '../../server/start';

const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: process.argv[2], logToStdout: false });
console.log(`Parley listening on ${server.url}`);
exitWithParent(() => server.close());
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
