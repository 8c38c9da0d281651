import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');

/** Starts `node dist/server/cli.js` the way `npm run serve` does and waits for its ready line. */
function serve(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, [path.join(root, 'dist/server/cli.js'), ...args], {
    env: { ...process.env, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /^Parley listening on (http:\/\/\S+)$/m.exec(out);
      if (match) resolve({ child, url: match[1] as string, stdout: () => out });
    });
  });
}

/** dist/ is built by the suite's global setup (test/helpers/global-setup.ts). */
describe('the built service (npm run serve)', () => {
  const dataDir = tempDataDir();
  let running: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    running = await serve(['--port', '0', '--data-dir', dataDir]);
  }, 60_000);

  afterAll(async () => {
    running?.child.removeAllListeners('exit');
    running?.child.kill('SIGTERM');
    await new Promise((r) => running?.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints one ready line with its URL and answers /health', async () => {
    expect(running.stdout()).toMatch(/^Parley listening on http:\/\/127\.0\.0\.1:\d+$/m);
    const res = await fetch(`${running.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
  });

  it('lets a newcomer sign up and sign in as the README shows', async () => {
    const signup = await fetch(`${running.url}/api/v1/auths/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', password: 'correct horse' }),
    });
    expect(signup.status).toBe(200);
    const signin = await fetch(`${running.url}/api/v1/auths/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse' }),
    });
    const session = (await signin.json()) as { token: string; role: string };
    expect(session.role).toBe('admin');
    const me = await fetch(`${running.url}/api/v1/auths/`, { headers: { authorization: `Bearer ${session.token}` } });
    expect(me.status).toBe(200);
  });

  it('reports every invalid setting at once and does not start', () => {
    const result = spawnSync(process.execPath, [path.join(root, 'dist/server/cli.js'), '--data-dir', dataDir], {
      env: { ...process.env, PARLEY_PORT: 'eighty', PARLEY_SECRET_STORE: 'vault', PARLEY_SIGNIN_RATE_LIMIT: '-3' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/PARLEY_PORT/);
    expect(result.stderr).toMatch(/PARLEY_SECRET_STORE/);
    expect(result.stderr).toMatch(/PARLEY_SIGNIN_RATE_LIMIT/);
  });
});
