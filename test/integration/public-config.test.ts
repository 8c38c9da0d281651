import { afterEach, describe, expect, it } from 'vitest';
import { signupAdmin } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('GET /api/config (public)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('tells a signed-out browser it is a first run until the first account exists', async () => {
    server = await startTestServer();
    const before = await server.anon.get('/api/config');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ name: 'Parley', onboarding: true, features: { enable_signup: true } });
    const admin = await signupAdmin(server);
    const after = await server.anon.get('/api/config');
    expect(after.body.onboarding).toBe(false);
    await server.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_SIGNUP: false, ENABLE_API_KEY: false });
    const closed = await server.anon.get('/api/config');
    expect(closed.body.features).toEqual({ enable_signup: false, enable_api_key: false, enable_message_rating: true, enable_notes: true, enable_channels: false });
  });
});
