import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreBackup } from '../../server/backup';
import { signupAdmin } from '../helpers/builders';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';

/** dist/ is built by the suite's global setup (test/helpers/global-setup.ts). */
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'dist/server/cli.js');
const backupCli = path.join(root, 'dist/server/backup/cli.js');
const cleanup: string[] = [];
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(file: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn', ...env } });
}

describe('safe operations', () => {
  it('refuses to restore into the data dir of a running service, and restores once it stopped', async () => {
    server = await startTestServer({ keepDataDir: true });
    cleanup.push(server.dataDir);
    await signupAdmin(server);
    const info = await server.services.backups.create();
    const archive = path.join(os.tmpdir(), `parley-safe-${process.pid}-${info.name}`);
    cleanup.push(archive);
    copyFileSync(path.join(server.dataDir, 'backups', info.name), archive);

    await expect(restoreBackup({ archive, dataDir: server.dataDir, force: true })).rejects.toThrow(/in use by a running Parley.*quit it first/);
    const viaCli = run(backupCli, ['restore', archive, '--data-dir', server.dataDir, '--force']);
    expect(viaCli.status).not.toBe(0);
    expect(viaCli.stderr).toMatch(/in use by a running Parley \(pid \d+, http:\/\/127\.0\.0\.1:\d+\)/);
    // The service keeps its data dir and keeps working.
    expect((await server.anon.get('/health')).status).toBe(200);
    expect(readdirSync(path.dirname(server.dataDir)).some((n) => n.startsWith(`${path.basename(server!.dataDir)}.before-restore`))).toBe(false);

    const dataDir = server.dataDir;
    await server.close();
    server = undefined;
    const restored = await restoreBackup({ archive, dataDir, force: true });
    cleanup.push(restored.previous as string);
    expect(existsSync(path.join(dataDir, 'parley.db'))).toBe(true);
  });

  it('refuses a second service on a data dir another process is using', async () => {
    server = await startTestServer();
    const second = run(cli, ['--port', '0', '--data-dir', server.dataDir]);
    expect(second.status).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(/in use by a running Parley/);
  });

  it('refuses to back up a folder that holds no Parley database, and creates nothing there', () => {
    const missing = path.join(tempDataDir('parley-nodb-'), 'mistyped');
    cleanup.push(path.dirname(missing));
    const result = run(backupCli, ['backup', '--data-dir', missing, '--out', path.join(path.dirname(missing), 'b.zip')]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/holds no Parley database/);
    expect(existsSync(path.join(missing, 'parley.db'))).toBe(false);
    expect(existsSync(path.join(path.dirname(missing), 'b.zip'))).toBe(false);
  });

  it('says in one line which port is taken and how to choose another, and exits non-zero', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const dataDir = tempDataDir();
    cleanup.push(dataDir);
    try {
      const result = run(cli, ['--port', String(port), '--data-dir', dataDir], { PARLEY_LOG_LEVEL: 'warn' });
      expect(result.status).toBe(1);
      const errorLines = result.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('{'));
      expect(errorLines).toEqual([`Parley could not start: port ${port} on 127.0.0.1 is already in use; choose another with --port N or PARLEY_PORT=N (0 picks a free port)`]);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at /);
      // Background jobs stopped before the database closed: no "aborted" query errors in the log.
      expect(readFileSync(path.join(dataDir, 'logs', 'parley.log'), 'utf8')).not.toMatch(/aborted|failed/);
      expect(existsSync(path.join(dataDir, 'parley.lock'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('rebuilds dist/ without ever removing a file the running service loads', async () => {
    // The files of the build a service started now would load (older builds' files may be pruned).
    const stamps = JSON.parse(readFileSync(path.join(root, 'dist/.build-stamps.json'), 'utf8')) as { server: { history: string[][] } };
    const current = new Set(stamps.server.history[0]!.map((f) => path.join(root, 'dist', f)));
    const watched = [path.join(root, 'dist/server/cli.js'), path.join(root, 'dist/server/index.js'), ...readdirSync(path.join(root, 'dist/chunks')).filter((n) => n.endsWith('.js')).map((n) => path.join(root, 'dist/chunks', n)).filter((f) => current.has(f))];
    expect(watched.length).toBeGreaterThan(10);
    const build = spawn(process.execPath, [path.join(root, 'scripts/build.mjs'), '--server-only', '--quiet', '--force'], { cwd: root, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => build.once('exit', resolve));
    const missing = new Set<string>();
    let done = false;
    void exited.then(() => (done = true));
    let checks = 0;
    while (!done) {
      for (const file of watched) if (!existsSync(file)) missing.add(path.relative(root, file));
      checks += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(await exited).toBe(0);
    expect(checks).toBeGreaterThan(20);
    expect([...missing]).toEqual([]);
  });
});
