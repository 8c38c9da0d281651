import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';
import { freePort } from '../helpers/free-port';
import { rawRequest } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/server';

/** The session cookie a response sets, as a Cookie header. */
function cookieOf(headers: Record<string, string | string[] | undefined>): string {
  const set = headers['set-cookie'];
  const first = Array.isArray(set) ? set[0] : set;
  if (!first) throw new Error('no cookie was set');
  return first.split(';')[0]!;
}

/** Waits until `condition` holds (checked every few milliseconds, for at most 10 s). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('desktop first run: owner handover and setup', () => {
  let server: TestServer | undefined;
  let ollama: FakeOllama | undefined;
  afterEach(async () => {
    await server?.close();
    await ollama?.close();
    server = undefined;
    ollama = undefined;
  });

  it('creates the owner and signs the window in once, without a password', async () => {
    server = await startTestServer();
    const code = await server.services.desktop.handover.issue('Grace');
    expect(code).toBeTruthy();

    const res = await rawRequest(`${server.url}/auths/desktop-handover?code=${code}`);
    expect(res.status).toBe(303);
    // No provider yet: the window opens on the setup screen.
    expect(res.headers.location).toBe('/setup');
    const me = await rawRequest(`${server.url}/api/v1/auths`, { headers: { cookie: cookieOf(res.headers) } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ name: 'Grace', role: 'admin' });

    // The code works once.
    const again = await rawRequest(`${server.url}/auths/desktop-handover?code=${code}`);
    expect(again.status).toBe(400);
    expect(JSON.parse(again.body).detail).toMatch(/expired or was already used/);
    // A guessed code does nothing.
    expect((await rawRequest(`${server.url}/auths/desktop-handover?code=guess`)).status).toBe(400);
    // The next start hands over to the same owner, not a new account.
    await server.services.desktop.handover.issue('Grace');
    expect(await server.services.usersRepo.count()).toBe(1);
  });

  it('has the owner before the port accepts anyone: an account racing to sign up first gets no admin, and the handover signs in the owner', async () => {
    // Another local account hammers sign-up on the port the desktop app is about to open.
    const port = await freePort();
    let first: { status: number; body: { role?: string } } | undefined;
    let racing = true;
    const race = (async () => {
      while (racing && !first) {
        const res = await rawRequest(`http://127.0.0.1:${port}/api/v1/auths/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Mallory', email: 'mallory@example.com', password: 'mallory-password' }),
        }).catch(() => undefined);
        if (res) first = { status: res.status, body: JSON.parse(res.body) as { role?: string } };
        else await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    server = await startTestServer({ port, desktopOwner: 'Grace' });
    await until(() => first !== undefined);
    racing = false;
    await race;
    expect(first).toMatchObject({ status: 200, body: { role: 'pending' } });

    const code = await server.services.desktop.handover.issue('Grace');
    const handed = await rawRequest(`${server.url}/auths/desktop-handover?code=${code}`);
    const me = await rawRequest(`${server.url}/api/v1/auths`, { headers: { cookie: cookieOf(handed.headers) } });
    expect(JSON.parse(me.body)).toMatchObject({ name: 'Grace', role: 'admin' });
  });

  it('without a desktop owner (npm run serve), the first sign-up still becomes the admin', async () => {
    server = await startTestServer();
    const first = await server.anon.post('/api/v1/auths/signup', { name: 'Ada', email: 'ada@example.com', password: 'admin-password' });
    expect(first.body.role).toBe('admin');
  });

  it('the owner sets a first password without a current one, then signs in anywhere', async () => {
    server = await startTestServer();
    const code = await server.services.desktop.handover.issue('Grace');
    const handed = await rawRequest(`${server.url}/auths/desktop-handover?code=${code}`);
    const cookie = cookieOf(handed.headers);
    const me = JSON.parse((await rawRequest(`${server.url}/api/v1/auths`, { headers: { cookie } })).body) as { token: string; email: string };
    // Without a password the owner cannot be signed in with a form.
    expect((await server.anon.post('/api/v1/auths/signin', { email: me.email, password: '' })).status).toBe(400);

    const set = await server.as(me.token).post('/api/v1/auths/update/password', { password: '', new_password: 'owner-password-1' });
    expect(set.status).toBe(200);
    expect((await server.anon.post('/api/v1/auths/signin', { email: me.email, password: 'owner-password-1' })).status).toBe(200);
    // From then on, changing it needs the current one.
    const fresh = await server.anon.post('/api/v1/auths/signin', { email: me.email, password: 'owner-password-1' });
    expect((await server.as(fresh.body.token).post('/api/v1/auths/update/password', { password: '', new_password: 'other-password-2' })).status).toBe(400);
  });

  it('a workspace whose accounts came from sign-up hands over to its primary admin', async () => {
    server = await startTestServer();
    await server.anon.post('/api/v1/auths/signup', { name: 'Ada', email: 'ada@example.com', password: 'admin-password' });
    await server.anon.post('/api/v1/auths/signup', { name: 'Bob', email: 'bob@example.com', password: 'user-password' });
    const code = await server.services.desktop.handover.issue('Someone');
    const res = await rawRequest(`${server.url}/auths/desktop-handover?code=${code}`);
    const me = await rawRequest(`${server.url}/api/v1/auths`, { headers: { cookie: cookieOf(res.headers) } });
    expect(JSON.parse(me.body)).toMatchObject({ email: 'ada@example.com', role: 'admin' });
    expect(await server.services.usersRepo.count()).toBe(2);
  });

  it('setup finds a local Ollama on its address and is no longer needed once a provider is connected', async () => {
    ollama = await startFakeOllama({ models: ['llama3:8b', 'qwen3:4b'] });
    server = await startTestServer({ envVars: { PARLEY_OLLAMA_PROBE_URL: ollama.url } });
    const code = await server.services.desktop.handover.issue();
    const handed = await rawRequest(`${server.url}/auths/desktop-handover?code=${code}`);
    const me = JSON.parse((await rawRequest(`${server.url}/api/v1/auths`, { headers: { cookie: cookieOf(handed.headers) } })).body) as { token: string };
    const owner = server.as(me.token);

    const before = await owner.get('/api/v1/desktop/setup');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ needed: true, ollama: { url: ollama.url.replace(/\/+$/, ''), found: true, models: 2 }, secret_store: 'memory' });

    expect((await owner.post('/local/config/update', { LOCAL_BASE_URLS: [ollama.url] })).status).toBe(200);
    expect((await owner.get('/api/v1/desktop/setup')).body.needed).toBe(false);
    const next = await rawRequest(`${server.url}/auths/desktop-handover?code=${await server.services.desktop.handover.issue()}`);
    expect(next.headers.location).toBe('/');
  });

  it('setup says so when nothing answers on the Ollama address', async () => {
    server = await startTestServer({ envVars: { PARLEY_OLLAMA_PROBE_URL: 'http://127.0.0.1:9' } });
    const admin = await server.anon.post('/api/v1/auths/signup', { name: 'Ada', email: 'ada@example.com', password: 'admin-password' });
    const state = await server.as(admin.body.token).get('/api/v1/desktop/setup');
    expect(state.body.ollama).toEqual({ url: 'http://127.0.0.1:9', found: false, models: 0 });
  });
});
