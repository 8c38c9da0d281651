import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';

/** The structured logger every part of the service writes to. */
export type Logger = pino.Logger;

/** Fields whose values are never written, wherever they appear in a log object. */
const REDACT = [
  'password', 'new_password', 'token', 'key', 'api_key', 'apiKey', 'secret', 'authorization',
  '*.password', '*.new_password', '*.token', '*.key', '*.api_key', '*.apiKey', '*.secret', '*.authorization',
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]',
  'COMPAT_API_KEYS', '*.COMPAT_API_KEYS',
];

export interface LoggerOptions {
  /** pino level name, or `silent`. */
  level: string;
  /** Data dir; logs go to `<dataDir>/logs/parley.log`. Omit for stdout only. */
  dataDir?: string;
  /** Also write to stdout (default true). */
  stdout?: boolean;
}

/**
 * Creates a logger writing JSON lines to stdout and to the data dir's log file. `flush()` waits
 * until the file is open, then writes what is queued: the file is opened in the background, and
 * pino's own flush at process exit fails ("sonic boom is not ready yet") when a start that fails
 * at once exits before it opened.
 */
export function createLogger(options: LoggerOptions): { log: Logger; flush(): Promise<void> } {
  const streams: pino.StreamEntry[] = [];
  let file: ReturnType<typeof pino.destination> | undefined;
  let opened: Promise<void> = Promise.resolve();
  if (options.dataDir) {
    const dir = path.join(options.dataDir, 'logs');
    mkdirSync(dir, { recursive: true });
    const destination = pino.destination({ dest: path.join(dir, 'parley.log'), sync: false, mkdir: true });
    // Opened in the background: 'ready' once open, 'error' when it cannot be (later errors are not ours to take).
    opened = new Promise((resolve) => {
      const settled = () => {
        destination.off('ready', settled);
        destination.off('error', settled);
        resolve();
      };
      destination.once('ready', settled);
      destination.once('error', settled);
    });
    file = destination;
    streams.push({ level: 'info', stream: file });
  }
  if (options.stdout !== false) streams.push({ level: 'info', stream: process.stdout });
  const level = options.level === 'silent' ? 'silent' : options.level;
  const log = pino(
    { level, redact: { paths: REDACT, censor: '[redacted]' }, base: { app: 'parley' } },
    pino.multistream(streams.map((s) => ({ ...s, level: level === 'silent' ? 'fatal' : (level as pino.Level) }))),
  );
  return {
    log,
    flush: async () => {
      await opened;
      try {
        file?.flushSync();
      } catch {
        // the file could not be opened or is closed: nothing more can be written to it
      }
    },
  };
}
