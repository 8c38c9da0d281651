import { parseArgs } from 'node:util';
import { BootConfigError } from './platform/env';
import { startServer } from './start';

const HELP = `Usage: npm run serve -- [--host HOST] [--port PORT] [--data-dir DIR]

Starts the Parley service and UI without the desktop shell.
  --host       address to listen on (PARLEY_HOST, default 127.0.0.1; 0.0.0.0 for the LAN)
  --port       port (PARLEY_PORT, default 8080; 0 picks a free port)
  --data-dir   where the database, uploads, indexes and logs live (PARLEY_DATA_DIR)
`;

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
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !Number.isInteger(port)) throw new BootConfigError([`port: '${values.port}' is not a whole number`]);
  const server = await startServer({ host: values.host, port, dataDir: values['data-dir'] });
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
  const message = error instanceof BootConfigError || error instanceof TypeError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`Parley could not start: ${message}\n`);
  process.exit(1);
});
