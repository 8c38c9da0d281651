import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port';
import { tempDataDir } from '../helpers/server';

/** dist/ is built by the suite's global setup (test/helpers/global-setup.ts). */
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'dist/server/cli.js');
const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Root may write anywhere: an unwritable folder is tested as another OS account, as a person meets it. */
const asRoot = process.getuid?.() === 0;

/** `npm run serve` as people run it (the built CLI), optionally as the `nobody` account. */
function serve(args: string[], env: Record<string, string> = {}, options: { unprivileged?: boolean } = {}) {
  const [command, argv] = options.unprivileged && asRoot ? ['runuser', ['-u', 'nobody', '--', process.execPath, cli, ...args]] : [process.execPath, [cli, ...args]];
  return spawnSync(command, argv, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn', ...env } });
}

/** What a person reads on the terminal: stderr is one line saying why, nothing crashed after it, exit code 1. */
function expectOneLine(result: ReturnType<typeof serve>, reason: RegExp): void {
  expect(result.status).toBe(1);
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Parley could not start: /);
  expect(lines[0]).toMatch(reason);
  expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at |sonic boom/);
  expect(result.stderr).not.toMatch(/Error/);
}

describe('npm run serve says in one line why it cannot start', () => {
  it('a data dir this OS account may not write is named as such, not as a port problem', () => {
    const parent = tempDataDir('parley-ro-');
    cleanup.push(parent);
    const dataDir = path.join(parent, 'data');
    // Root owns the folder and nobody else may write it (as root the CLI runs as `nobody`); else a read-only folder of one's own.
    chmodSync(parent, asRoot ? 0o755 : 0o555);
    const result = serve(['--port', '0', '--data-dir', dataDir], {}, { unprivileged: true });
    chmodSync(parent, 0o700);
    expectOneLine(result, new RegExp(`the data dir ${dataDir} cannot be written by this OS account: permission denied; choose a folder this OS account owns with --data-dir or PARLEY_DATA_DIR`));
    expect(result.stderr).not.toMatch(/port/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a data dir whose path runs through a file says which file is in the way', () => {
    const parent = tempDataDir('parley-file-');
    cleanup.push(parent);
    writeFileSync(path.join(parent, 'notes.txt'), 'not a folder');
    const result = serve(['--port', '0', '--data-dir', path.join(parent, 'notes.txt', 'data')]);
    expectOneLine(result, new RegExp(`is not a folder \\(${path.join(parent, 'notes.txt')} is a file\\)`));
  });

  it('a parley.db that is not a database says so and points to restoring a backup', () => {
    const dataDir = tempDataDir();
    cleanup.push(dataDir);
    writeFileSync(path.join(dataDir, 'parley.db'), 'These are meeting notes saved under the wrong name, not a SQLite database at all.'.repeat(20));
    const result = serve(['--port', '0', '--data-dir', dataDir]);
    expectOneLine(result, /parley\.db is not a readable SQLite database .*npm run restore/);
    expect(existsSync(path.join(dataDir, 'parley.lock'))).toBe(false);
  });

  it('a damaged install-id file is named, with the fix', () => {
    const dataDir = tempDataDir();
    cleanup.push(dataDir);
    writeFileSync(path.join(dataDir, 'install-id'), '../../other service');
    const result = serve(['--port', '0', '--data-dir', dataDir]);
    expectOneLine(result, /install-id is damaged .*restore it from a backup/);
  });

  it('an unreachable PostgreSQL is named without its password, and the log file is flushed before exit', async () => {
    const dataDir = tempDataDir();
    cleanup.push(dataDir);
    const port = await freePort();
    const result = serve(['--port', '0', '--data-dir', dataDir], { PARLEY_DATABASE_URL: `postgres://parley:hunter2@127.0.0.1:${port}/office` });
    expectOneLine(result, new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${port}/office cannot be used: nothing answers there \\(connection refused\\); check PARLEY_DATABASE_URL`));
    expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
    expect(existsSync(path.join(dataDir, 'parley.lock'))).toBe(false);
  });

  it('a bad PARLEY_SECRET_KEY is reported with every other invalid setting, and nothing is created', () => {
    const parent = tempDataDir();
    cleanup.push(parent);
    const dataDir = path.join(parent, 'data');
    const result = serve(['--port', 'eighty', '--data-dir', dataDir], { PARLEY_SECRET_KEY: 'not-a-key', PARLEY_SIGNIN_RATE_LIMIT: '-3', PARLEY_HEAP: 'huge' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Parley could not start: Invalid settings:',
      '  - port (--port or PARLEY_PORT): must be a whole number from 0 to 65535 (0 picks a free port)',
      expect.stringMatching(/^ {2}- signinRateLimit \(PARLEY_SIGNIN_RATE_LIMIT\): /),
      '  - secretKey (PARLEY_SECRET_KEY): must be 32 bytes written as 64 hex characters or base64 (for example the output of: openssl rand -hex 32)',
      '  - heap (PARLEY_HEAP): must be small or fast',
    ]);
    expect(result.stderr).not.toContain('not-a-key');
    expect(existsSync(dataDir)).toBe(false);
  });
});
