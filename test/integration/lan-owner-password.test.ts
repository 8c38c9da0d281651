import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/server';
import { freePort } from '../helpers/free-port';

/** The desktop owner's token, as the window gets it from the one-time handover. */
async function ownerToken(server: TestServer): Promise<string> {
  const code = await server.services.desktop.handover.issue('Grace');
  const handed = await rawRequest(`${server.url}/auths/desktop-handover?code=${code}`);
  const set = handed.headers['set-cookie'];
  const cookie = (Array.isArray(set) ? set[0] : set)!.split(';')[0]!;
  return (JSON.parse((await rawRequest(`${server.url}/api/v1/auths`, { headers: { cookie } })).body) as { token: string }).token;
}

describe('LAN sharing asks the desktop owner for a password first', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.services.lan.update({ enabled: false });
    await server?.close();
    server = undefined;
  });

  it('refuses to turn sharing on with a 409 naming the need, until the owner has set a password', async () => {
    server = await startTestServer();
    const token = await ownerToken(server);
    const as = server.as(token);

    expect((await as.get('/api/v1/configs/lan')).body).toMatchObject({ enabled: false, password_required: true });
    const refused = await as.post('/api/v1/configs/lan', { enabled: true, port: await freePort() });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/Set a password for your account before turning on LAN sharing/);
    expect((await server.services.lan.status()).enabled).toBe(false);
    // Other settings still save without one (nothing is opened to the network).
    expect((await as.post('/api/v1/configs/lan', { enabled: false })).status).toBe(200);

    expect((await as.post('/api/v1/auths/update/password', { password: '', new_password: 'owner-password-1' })).status).toBe(200);
    expect((await as.get('/api/v1/configs/lan')).body.password_required).toBe(false);
    const on = await as.post('/api/v1/configs/lan', { enabled: true, port: await freePort() });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, password_required: false });
  });

  it('lets an admin with a password turn sharing on at once', async () => {
    server = await startTestServer();
    const admin = await server.anon.post('/api/v1/auths/signup', { name: 'Ada', email: 'ada@example.com', password: 'ada-password-1' });
    expect(admin.status).toBe(200);
    const as = server.as(admin.body.token as string);
    expect((await as.get('/api/v1/configs/lan')).body.password_required).toBe(false);
    expect((await as.post('/api/v1/configs/lan', { enabled: true, port: await freePort() })).status).toBe(200);
  });
});
