import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';

describe('GET /api/v1/connections/status', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let fake: FakeOpenAI;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    fake = await startFakeOpenAI({ models: ['gpt-fake'] });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('names the connection that does not answer (URL and reason for admins only), and clears once it answers', async () => {
    const dead = 'http://127.0.0.1:9/v1';
    await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [fake.url, dead], COMPAT_API_KEYS: ['', ''], COMPAT_API_CONFIGS: {} });
    const forUser = await server.as(alice.token).get('/api/v1/connections/status');
    expect(forUser.status).toBe(200);
    expect(forUser.body).toEqual({ unreachable: [{ kind: 'compat', index: 1 }] });
    const forAdmin = await server.as(admin.token).get('/api/v1/connections/status');
    expect(forAdmin.body.unreachable[0]).toMatchObject({ kind: 'compat', index: 1, url: dead, reason: expect.any(String) });

    await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [fake.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    expect((await server.as(alice.token).get('/api/v1/connections/status')).body).toEqual({ unreachable: [] });
  });
});
