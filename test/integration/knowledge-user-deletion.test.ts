import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { TEXT_FIXTURES } from '../fixtures/documents/build-documents';
import { addAndWait, createBase, query, uploadFile } from './knowledge-helpers';

describe('deleting a user with knowledge bases', () => {
  let server: TestServer;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const indexDir = () => path.join(server.dataDir, 'indexes');
  const indexFile = (collectionId: string) => path.join(indexDir(), `${collectionId}.idx`);
  const count = async (table: string, column: string, values: string[]) => Number(((await server.services.db(table).whereIn(column, values).count({ n: '*' })) as Array<{ n: number }>)[0]!.n);

  it('leaves none of their indexes, index files or chunks behind, and takes their files out of other people’s bases', async () => {
    const victim = await buildUser(server, admin, 'user', 'Leaving');
    const falcon = await uploadFile(server, victim, 'falcon.txt', TEXT_FIXTURES['falcon.txt']!);
    const garden = await uploadFile(server, victim, 'garden.md', TEXT_FIXTURES['garden.md']!);
    const page = await uploadFile(server, victim, 'page.html', TEXT_FIXTURES['page.html']!);
    const own = await createBase(server, victim, 'Private notes');
    expect((await addAndWait(server, victim, own, falcon)).status).toBe('completed');
    expect((await addAndWait(server, victim, own, garden)).status).toBe('completed');
    // A chat attachment of theirs, indexed on its own when searched.
    expect((await query(server, victim, [`file-${page}`], 'Gull Island lighthouse', { relevance_threshold: 0 })).documents[0]).toContain('1874');
    // An admin's base holding one of their files next to one of the admin's.
    const shared = await createBase(server, admin, 'Shared');
    const staff = await uploadFile(server, admin, 'staff.csv', TEXT_FIXTURES['staff.csv']!);
    expect((await addAndWait(server, admin, shared, falcon)).status).toBe('completed');
    expect((await addAndWait(server, admin, shared, staff)).status).toBe('completed');

    // Every index in memory and saved to disk.
    expect((await query(server, victim, [own], 'launch code Project Falcon', { relevance_threshold: 0 })).documents[0]).toContain('AZURE-7421');
    expect((await query(server, admin, [shared], 'launch code Project Falcon', { relevance_threshold: 0 })).documents[0]).toContain('AZURE-7421');
    await server.services.retrieval.service.flush();
    for (const id of [own, `file-${page}`, shared]) expect(existsSync(indexFile(id)), id).toBe(true);

    const res = await server.as(admin.token).delete(`/api/v1/users/${victim.id}`);
    expect(res.status, res.text).toBe(200);

    // Their base and their chat file: no index in memory, no file on disk, no rows.
    for (const id of [own, `file-${page}`]) {
      expect(server.services.retrieval.indexes.peek(id), id).toBeUndefined();
      expect(existsSync(indexFile(id)), id).toBe(false);
    }
    expect(await count('knowledge', 'id', [own])).toBe(0);
    expect(await count('collection_files', 'file_id', [falcon, garden, page])).toBe(0);
    expect(await count('chunks', 'file_id', [falcon, garden, page])).toBe(0);
    expect(await count('chunks', 'collection_id', [own, `file-${page}`])).toBe(0);

    // The admin's base lost the file in memory too, and keeps the admin's own.
    const index = await server.services.retrieval.indexes.peek(shared)!;
    expect(index.has(falcon)).toBe(false);
    expect(index.has(staff)).toBe(true);
    const after = await query(server, admin, [shared], 'launch code Project Falcon AZURE-7421', { relevance_threshold: 0 });
    expect(after.documents.join('\n')).not.toContain('AZURE-7421');
    expect((await query(server, admin, [shared], 'Grace Hopper admiral', { relevance_threshold: 0 })).documents[0]).toContain('Hopper');
    const detail = await server.as(admin.token).get(`/api/v1/knowledge/${shared}`);
    expect(detail.body.files.map((f: { id: string }) => f.id)).toEqual([staff]);

    // Saved again, the shared index is current; nothing of theirs is left in the folder.
    await server.services.retrieval.service.flush();
    const left = readdirSync(indexDir());
    expect(left.filter((name) => name.includes(own) || name.includes(page) || name.endsWith('.tmp'))).toEqual([]);
    expect(left).toContain(`${shared}.idx`);
  });
});
