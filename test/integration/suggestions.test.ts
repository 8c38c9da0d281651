import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('suggested prompts of the empty chat', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
  });
  afterAll(async () => {
    await server.close();
  });

  it('offers defaults, lets an admin replace them for everyone, and refuses bad lists with 422', async () => {
    const first = await server.as(alice.token).get('/api/v1/configs/suggestions');
    expect(first.status).toBe(200);
    expect(first.body.suggestions.length).toBeGreaterThan(0);
    const mine = { suggestions: [{ title: ['Plan a trip', 'three days in Lisbon'], content: 'Plan a three-day trip to Lisbon.' }] };
    expect((await server.as(admin.token).post('/api/v1/configs/suggestions', mine)).body).toEqual(mine);
    expect((await server.as(alice.token).get('/api/v1/configs/suggestions')).body).toEqual(mine);
    const bad = await server.as(admin.token).post('/api/v1/configs/suggestions', { suggestions: [{ title: [], content: '' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/suggestions/);
    expect((await server.as(alice.token).post('/api/v1/configs/suggestions', mine)).status).toBe(403);
  });
});
