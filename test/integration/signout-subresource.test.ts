import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/*
 * `![x](/api/v1/auths/signout)` in a shared chat: the viewer's browser loads the "image" with
 * their cookie. Sign-out by GET stays (the interface has it) for navigations and scripts' fetches,
 * but a browser loading a subresource (Sec-Fetch-Dest image, script, iframe…) is refused.
 */
describe('sign-out by GET from an image or frame', () => {
  let server: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an image, script, style or frame pointing at sign-out is refused (403) and the session goes on', async () => {
    const user = await buildUser(server, admin);
    for (const dest of ['image', 'script', 'style', 'iframe', 'embed', 'object']) {
      const res = await server.as(user.token).get('/api/v1/auths/signout', { headers: { 'sec-fetch-dest': dest } });
      expect(res.status, dest).toBe(403);
      expect(res.body).toMatchObject({ detail: expect.stringMatching(/cannot be loaded/) });
    }
    expect((await server.as(user.token).get('/api/v1/auths/')).status).toBe(200);
  });

  it('a navigation, a page’s fetch and a script without the header still sign out', async () => {
    for (const headers of [{ 'sec-fetch-dest': 'document' }, { 'sec-fetch-dest': 'empty' }, {}] as Array<Record<string, string>>) {
      const user = await buildUser(server, admin);
      expect((await server.as(user.token).get('/api/v1/auths/signout', { headers })).status).toBe(200);
      expect((await server.as(user.token).get('/api/v1/auths/')).status).toBe(401);
    }
  });
});
