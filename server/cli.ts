import { parseArgs } from 'node:util';
import { StartRefused } from './platform/start-refused';
import { adoptLegacyDataDir, defaultDataDir, legacyDataDirs } from './platform/paths';
import { startServer } from './start';

const HELP = `Usage: npm run serve -- [--host HOST] [--port PORT] [--data-dir DIR]

Starts the Parley service and UI without the desktop shell.
  --host       address to listen on (PARLEY_HOST, default 127.0.0.1; 0.0.0.0 for the LAN)
  --port       port (PARLEY_PORT, default 8080; 0 picks a free port)
  --data-dir   where the database, uploads, indexes and logs live (PARLEY_DATA_DIR)
`;

/** One line saying why the service did not start; a stack trace only for the unexpected. */
function startFailureMessage(error: unknown): string {
  if (error instanceof StartRefused || error instanceof TypeError) return error.message;
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  // Only the listening socket's errors are about the port: a folder's EACCES is the data dir's (StartRefused above).
  if (syscall !== 'listen') return String((error as Error | undefined)?.stack ?? error);
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const { address, port } = error as NodeJS.ErrnoException & { address?: string; port?: number };
    const what = code === 'EADDRINUSE' ? 'is already in use' : 'may not be used by this user';
    return `port ${port ?? '?'} on ${address ?? 'this machine'} ${what}; choose another with --port N or PARLEY_PORT=N (0 picks a free port)`;
  }
  if (code === 'EADDRNOTAVAIL') return `${(error as { address?: string }).address ?? 'that address'} is not an address of this machine; check --host or PARLEY_HOST`;
  return String((error as Error | undefined)?.stack ?? error);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (values['data-dir'] === undefined && !process.env.PARLEY_DATA_DIR) {
    const moved = adoptLegacyDataDir(defaultDataDir(), legacyDataDirs());
    if (moved) process.stdout.write(`Moved Parley's data from ${moved} to the default data dir ${defaultDataDir()}\n`);
  }
  // --port is checked with every other setting, so all problems are reported together.
  const server = await startServer({
    host: values.host,
    port: values.port,
    dataDir: values['data-dir'],
    ownsProcess: true,
    // The port answers /health from here on; requests wait until the database is upgraded and the service is ready.
    onListening: (url) => process.stdout.write(`Parley starting on ${url}\n`),
  });
  process.stdout.write(`Parley listening on ${server.url}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Error while stopping after ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Parley could not start: ${startFailureMessage(error)}\n`);
  process.exit(1);
});
