import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startBuiltService, type BuiltService } from './built-service';

describe('the built service (npm run serve)', () => {
  let running: BuiltService;

  beforeAll(async () => {
    running = await startBuiltService();
  }, 60_000);

  afterAll(async () => {
    await running?.close();
  });

  it('prints one ready line with its URL and answers /health', async () => {
    expect(running.output()).toMatch(/^Parley listening on http:\/\/127\.0\.0\.1:\d+$/m);
    const res = await fetch(`${running.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
  });

  it('lets a newcomer sign up and sign in as the README shows', async () => {
    const signup = await running.anon.post('/api/v1/auths/signup', { name: 'Ada', email: 'ada@example.com', password: 'correct horse' });
    expect(signup.status).toBe(200);
    const signin = await running.anon.post('/api/v1/auths/signin', { email: 'ada@example.com', password: 'correct horse' });
    expect(signin.body.role).toBe('admin');
    expect((await running.as(signin.body.token as string).get('/api/v1/auths/')).status).toBe(200);
  });

  it('reports every invalid setting at once and does not start', () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/server/cli.js'), '--data-dir', running.dataDir], {
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
