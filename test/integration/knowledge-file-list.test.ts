import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';
import { TEXT_FIXTURES } from '../fixtures/documents/build-documents';
import { createBase, uploadFile, waitForFiles } from './knowledge-helpers';

type Listed = { id: string; name: string; status: string; error?: string; size: number; mime_type: string; created_at: number };

/** The file list as SQLite has it (what a freshly started service would answer). */
async function fromDatabase(server: TestServer, base: string): Promise<Listed[]> {
  const rows = (await server.services
    .db('collection_files as cf')
    .leftJoin('files as f', 'f.id', 'cf.file_id')
    .where('cf.collection_id', base)
    .orderBy([{ column: 'cf.created_at' }, { column: 'cf.rowid' }])
    .select('cf.file_id', 'cf.status', 'cf.error', 'cf.created_at', 'f.filename', 'f.size', 'f.mime_type')) as Array<Record<string, any>>;
  return rows.map((r) => ({ id: r.file_id, name: r.filename ?? '', status: r.status, ...(r.error ? { error: r.error } : {}), size: r.size ?? 0, mime_type: r.mime_type ?? '', created_at: r.created_at }));
}

describe('a knowledge base’s file list', () => {
  const dataDir = tempDataDir('parley-file-list-');
  let server: TestServer;
  let admin: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ dataDir, keepDataDir: true });
    admin = await signupAdmin(server);
    bob = await buildUser(server, admin, 'user', 'Bob');
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const listed = async (base: string, user = admin) => {
    const res = await server.as(user.token).get(`/api/v1/knowledge/${base}`);
    expect(res.status, res.text).toBe(200);
    return res.body.files as Listed[];
  };

  it('always shows what the database holds, through adds, failures, re-adds, removals and deleted files and users', async () => {
    const base = await createBase(server, admin, 'Tracked', { access_control: null });
    const names = Object.keys(TEXT_FIXTURES);
    const ids: string[] = [];
    for (const name of names) ids.push(await uploadFile(server, admin, name, TEXT_FIXTURES[name]!));
    const broken = await uploadFile(server, admin, 'broken.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]));
    const bobs = await uploadFile(server, bob, 'bob-notes.txt', 'Bob keeps his bicycle in the blue shed.');

    // Read once (now kept in memory), then changed many ways while files are being indexed.
    expect(await listed(base)).toEqual([]);
    for (const id of [...ids, broken, bobs]) {
      const res = await server.as(admin.token).post(`/api/knowledge/${base}/file/add`, { file_id: id });
      expect(res.status, res.text).toBe(200);
      expect(res.body.files.map((f: Listed) => f.id)).toContain(id);
      // States move on in the background meanwhile: compare which files, in which order.
      const shape = (files: Listed[]) => files.map((f) => [f.id, f.name, f.size, f.mime_type, f.created_at]);
      expect(shape(res.body.files)).toEqual(shape(await fromDatabase(server, base)));
    }
    await waitForFiles(server, admin, base);
    const settled = await listed(base);
    expect(settled).toEqual(await fromDatabase(server, base));
    expect(settled.find((f) => f.id === broken)).toMatchObject({ status: 'failed' });
    expect(settled.filter((f) => f.status === 'completed')).toHaveLength(names.length + 1);

    // A failed file re-added keeps its place and goes back into the queue (the worker may already
    // have taken it when the answer is written), without its old error; then it fails again.
    const readded = await server.as(admin.token).post(`/api/knowledge/${base}/file/add`, { file_id: broken });
    expect(readded.body.files.map((f: Listed) => f.id)).toEqual(settled.map((f) => f.id));
    expect(['pending', 'processing']).toContain(readded.body.files.find((f: Listed) => f.id === broken).status);
    expect(readded.body.files.find((f: Listed) => f.id === broken).error).toBeUndefined();
    await waitForFiles(server, admin, base);
    expect((await listed(base)).find((f) => f.id === broken)).toMatchObject({ status: 'failed' });

    // Removed from the base, deleted as a file, and gone with its deleted owner.
    const removed = await server.as(admin.token).post(`/api/knowledge/${base}/file/remove`, { file_id: ids[0] });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.files).toEqual(await fromDatabase(server, base));
    expect((await server.as(admin.token).delete(`/api/v1/chats/attachment/${ids[1]}`)).status).toBe(200);
    expect((await server.as(admin.token).delete(`/api/v1/users/${bob.id}`)).status).toBe(200);
    const final = await listed(base);
    expect(final).toEqual(await fromDatabase(server, base));
    expect(final.map((f) => f.id)).not.toContain(ids[0]);
    expect(final.map((f) => f.id)).not.toContain(ids[1]);
    expect(final.map((f) => f.id)).not.toContain(bobs);

    // A restarted service reads the same list from the database.
    await server.close();
    server = await startTestServer({ dataDir, keepDataDir: true });
    const signin = await server.anon.post('/api/v1/auths/signin', { email: admin.email, password: admin.password });
    admin = { ...admin, token: signin.body.token };
    expect(await listed(base)).toEqual(final);
  });
});
