import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { addAndWait, createBase, uploadFile } from './knowledge-helpers';

describe('knowledge file preview', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
  });
  afterAll(async () => {
    await server.close();
  });

  it('shows the extracted text of a file with its chunks in order, to readers of the base only', async () => {
    const id = await createBase(server, alice, 'Preview');
    const html = `<html><body><h1>Otters</h1><p>${'Sea otters hold hands while sleeping. '.repeat(120)}</p><p>They live in kelp forests.</p></body></html>`;
    const file = await uploadFile(server, alice, 'otters.html', html);
    expect((await addAndWait(server, alice, id, file)).status).toBe('completed');

    const res = await server.as(alice.token).get(`/api/v1/knowledge/${id}/file/${file}/preview`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ file_id: file, name: 'otters.html', status: 'completed', truncated: false });
    expect(res.body.text).toContain('They live in kelp forests.');
    expect(res.body.text).not.toContain('<p>');
    expect(res.body.chunks.length).toBeGreaterThan(1);
    expect(res.body.chunks_total).toBe(res.body.chunks.length);
    expect(res.body.chunks.map((c: { seq: number }) => c.seq)).toEqual([...res.body.chunks.keys()]);
    expect(res.body.chunks.at(-1).text).toContain('kelp forests');

    expect((await server.as(bob.token).get(`/api/v1/knowledge/${id}/file/${file}/preview`)).status).toBe(404);
    expect((await server.as(alice.token).get(`/api/knowledge/${id}/file/nope/preview`)).status).toBe(404);
  });
});
