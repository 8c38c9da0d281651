import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createClient, type ServiceClients } from '../helpers/client';
import { tempDataDir } from '../helpers/server';

/** The repository root: dist/ is built there by the suite's global setup (test/helpers/global-setup.ts). */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The built service as `npm run serve` runs it: `node dist/server/cli.js` in a process of its own. */
export interface BuiltService extends ServiceClients {
  dataDir: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** How it ended, once it has: exit code or signal. */
  exited(): string | undefined;
  /** Stops it (SIGTERM, as Ctrl+C would) and waits; removes the data dir unless it was given. */
  close(): Promise<void>;
}

export interface BuiltServiceOptions {
  /** Extra CLI flags. */
  args?: string[];
  env?: Record<string, string>;
  /** A data dir to use (kept at close); else a temporary one (removed at close). */
  dataDir?: string;
}

/** Starts `node dist/server/cli.js --port 0` and resolves on its ready line. */
export function startBuiltService(options: BuiltServiceOptions = {}): Promise<BuiltService> {
  const dataDir = options.dataDir ?? tempDataDir('parley-dist-');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/cli.js'), '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])], {
    cwd: ROOT,
    // Tests sign up many accounts from one address: the sign-up limit is opt-in here, as in test/helpers/server.ts.
    env: { ...process.env, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn', PARLEY_SIGNUP_RATE_LIMIT: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let ended: string | undefined;
  const onData = (d: Buffer) => (out += d.toString());
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const gone = new Promise<void>((resolve) => child.once('exit', (code, signal) => {
    ended = signal ?? String(code);
    resolve();
  }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the built service did not start within 60 s:\n${out}`)), 60_000);
    void gone.then(() => {
      clearTimeout(timer);
      reject(new Error(`the built service exited (${ended}) before it was ready:\n${out}`));
    });
    child.stdout?.on('data', () => {
      const match = /^Parley listening on (http:\/\/\S+)$/m.exec(out);
      if (!match) return;
      clearTimeout(timer);
      const url = match[1]!;
      resolve({
        url,
        dataDir,
        child,
        anon: createClient(url),
        as: (token) => createClient(url, token),
        output: () => out,
        exited: () => ended,
        close: async () => {
          if (ended === undefined) child.kill('SIGTERM');
          await gone;
          if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
        },
      });
    });
  });
}
