import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeDocx, makePdf, TEXT_FIXTURES } from '../fixtures/documents/build-documents';
import { addAndWait, createBase, query, uploadFile, waitForFiles } from './knowledge-helpers';

describe('knowledge bases', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates, lists, reads, updates and deletes a base at the /api and /api/v1 paths', async () => {
    const created = await server.as(alice.token).post('/api/knowledge/create', { name: 'Handbook', description: 'HR' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Handbook', description: 'HR', file_count: 0, user_id: alice.id });
    const id = created.body.id;
    const list = await server.as(alice.token).get('/api/knowledge');
    expect(list.body.map((k: { id: string }) => k.id)).toContain(id);
    expect((await server.as(alice.token).get('/api/v1/knowledge/')).body.map((k: { id: string }) => k.id)).toContain(id);
    const one = await server.as(alice.token).get(`/api/v1/knowledge/${id}`);
    expect(one.body).toMatchObject({ id, name: 'Handbook', files: [] });
    expect((await server.as(alice.token).get(`/api/knowledge/${id}`)).status).toBe(200);
    const updated = await server.as(alice.token).post(`/api/knowledge/${id}/update`, { name: 'Staff handbook', description: 'People' });
    expect(updated.body).toMatchObject({ name: 'Staff handbook', description: 'People', files: [] });
    expect((await server.as(alice.token).post(`/api/v1/knowledge/${id}/update`, { name: 'Again' })).body.name).toBe('Again');
    const deleted = await server.as(alice.token).delete(`/api/knowledge/${id}/delete`);
    expect(deleted.body).toEqual({ success: true });
    expect((await server.as(alice.token).get(`/api/v1/knowledge/${id}`)).status).toBe(404);
  });

  it('keeps a private base invisible to others, and lets listed readers read but not write', async () => {
    const id = await createBase(server, alice, 'Private');
    expect((await server.as(bob.token).get(`/api/v1/knowledge/${id}`)).status).toBe(404);
    expect((await server.as(bob.token).get('/api/knowledge')).body.map((k: { id: string }) => k.id)).not.toContain(id);
    expect((await server.as(bob.token).post(`/api/knowledge/${id}/update`, { name: 'x' })).status).toBe(404);
    expect((await server.as(admin.token).get(`/api/v1/knowledge/${id}`)).status).toBe(200);

    await server.as(alice.token).post(`/api/knowledge/${id}/update`, { name: 'Shared', access_control: { read: { user_ids: [bob.id] } } });
    expect((await server.as(bob.token).get(`/api/v1/knowledge/${id}`)).status).toBe(200);
    expect((await server.as(bob.token).post(`/api/knowledge/${id}/update`, { name: 'x' })).status).toBe(403);
    expect((await server.as(bob.token).delete(`/api/knowledge/${id}/delete`)).status).toBe(403);
  });

  it('refuses bad bodies with a 422 naming the field, and anonymous callers with 401', async () => {
    const empty = await server.as(alice.token).post('/api/knowledge/create', { name: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toMatch(/name/);
    const id = await createBase(server, alice, 'Strict');
    const noFile = await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, {});
    expect(noFile.status).toBe(422);
    expect(noFile.body.detail).toMatch(/file_id/);
    expect((await server.anon.get('/api/knowledge')).status).toBe(401);
    const missing = await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, { file_id: 'nope' });
    expect(missing.status).toBe(404);
  });

  it('will not add someone else’s file, nor the same file twice', async () => {
    const id = await createBase(server, alice, 'Mine');
    const bobsFile = await uploadFile(server, bob, 'bob.txt', 'Bob writes about otters.');
    expect((await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, { file_id: bobsFile })).status).toBe(403);
    const file = await uploadFile(server, alice, 'a.txt', 'Alice writes about badgers.');
    expect((await addAndWait(server, alice, id, file)).status).toBe('completed');
    const again = await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, { file_id: file });
    expect(again.status).toBe(400);
  });

  it('indexes text, Markdown, HTML, CSV, JSON, PDF and DOCX files so their facts can be found', async () => {
    const id = await createBase(server, alice, 'Everything');
    const uploads: Array<[string, Buffer | string]> = Object.entries(TEXT_FIXTURES);
    uploads.push(['report.pdf', await makePdf(['Page one is about the weather. '.repeat(40), 'The submarine Nautilus was commissioned in Brest harbour.'])]);
    uploads.push(['policy.docx', await makeDocx([{ heading: 'Travel policy', paragraphs: ['Employees may claim a vegetarian lunch allowance of 14 euros.'] }])]);
    for (const [name, data] of uploads) {
      const fileId = await uploadFile(server, alice, name, data);
      await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, { file_id: fileId });
    }
    const files = await waitForFiles(server, alice, id);
    expect(files.map((f) => [f.name, f.status, f.error])).toEqual(uploads.map(([name]) => [name, 'completed', undefined]));

    const expectations: Array<[string, string, RegExp]> = [
      ['falcon.txt', 'launch code Project Falcon', /AZURE-7421/],
      ['garden.md', 'watering basil rainwater', /blue barrel/],
      ['page.html', 'when was the lighthouse on Gull Island built', /1874/],
      ['staff.csv', 'Grace Hopper office', /office: Room 7/],
      ['inventory.json', 'quantum widget warehouse', /QX-99/],
      ['report.pdf', 'submarine Nautilus commissioned', /Brest/],
      ['policy.docx', 'vegetarian lunch allowance', /14 euros/],
    ];
    for (const [name, text, fact] of expectations) {
      const result = await query(server, alice, [id], text, { k: 3, relevance_threshold: 0 });
      expect(result.metadatas[0]?.name, text).toBe(name);
      expect(result.documents[0], text).toMatch(fact);
    }
    const html = await query(server, alice, [id], 'zebrafish secretScriptWord', { k: 5, relevance_threshold: 0 });
    expect(html.documents.join(' ')).not.toMatch(/zebrafish/);
    const pdf = await query(server, alice, [id], 'submarine Nautilus', { k: 1, relevance_threshold: 0 });
    expect(pdf.metadatas[0]!.last_page ?? pdf.metadatas[0]!.page).toBe(2);
  });

  it('marks a corrupt or password-protected PDF failed with a clear reason, and indexes nothing of it', async () => {
    const id = await createBase(server, alice, 'Broken');
    const locked = await uploadFile(server, alice, 'locked.pdf', await makePdf(['The vault combination is 31-41-59.'], 'hunter2'));
    const corrupt = await uploadFile(server, alice, 'corrupt.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]));
    const image = await uploadFile(server, alice, 'dot.png', Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f60000000049454e44ae426082', 'hex'));
    for (const f of [locked, corrupt, image]) await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, { file_id: f });
    const files = await waitForFiles(server, alice, id);
    const byId = new Map(files.map((f) => [f.id, f]));
    expect(byId.get(locked)).toMatchObject({ status: 'failed', error: 'The PDF is password-protected' });
    expect(byId.get(corrupt)).toMatchObject({ status: 'failed' });
    expect(byId.get(corrupt)!.error).toMatch(/PDF could not be read/);
    expect(byId.get(image)).toMatchObject({ status: 'failed' });
    expect(byId.get(image)!.error).toMatch(/image\/png/);
    const result = await query(server, alice, [id], 'vault combination', { relevance_threshold: 0 });
    expect(result.documents).toEqual([]);
    // Failed files stay listed but are not counted, in the base and in the list of bases.
    expect((await server.as(alice.token).get(`/api/v1/knowledge/${id}`)).body.file_count).toBe(0);
    const bases = (await server.as(alice.token).get('/api/v1/knowledge/')).body as Array<{ id: string; file_count: number }>;
    expect(bases.find((b) => b.id === id)?.file_count).toBe(0);
  });

  it('removes a file from a base: its passages are no longer found, the file itself stays', async () => {
    const id = await createBase(server, alice, 'Removal');
    const file = await uploadFile(server, alice, 'otters.txt', 'Sea otters hold hands while sleeping in kelp forests.');
    await addAndWait(server, alice, id, file);
    expect((await query(server, alice, [id], 'otters kelp', { relevance_threshold: 0 })).documents).toHaveLength(1);
    const removed = await server.as(alice.token).post(`/api/knowledge/${id}/file/remove`, { file_id: file });
    expect(removed.status).toBe(200);
    expect(removed.body.files).toEqual([]);
    expect((await query(server, alice, [id], 'otters kelp', { relevance_threshold: 0 })).documents).toEqual([]);
    expect((await server.as(alice.token).get(`/api/v1/files/${file}`)).status).toBe(200);
    expect((await server.as(alice.token).post(`/api/knowledge/${id}/file/remove`, { file_id: file })).status).toBe(404);
  });

  it('exports the original files as a streamed ZIP attachment named after the base', async () => {
    const id = await createBase(server, alice, 'Export me');
    const a = await uploadFile(server, alice, 'one.txt', 'first file');
    const b = await uploadFile(server, alice, 'two.md', '# second file');
    await addAndWait(server, alice, id, a);
    await addAndWait(server, alice, id, b);
    const res = await fetch(`${server.url}/api/v1/knowledge/${id}/export`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Export me.zip"/);
    const zip = Buffer.from(await res.arrayBuffer());
    const yauzl = await import('yauzl');
    const entries = await new Promise<Record<string, string>>((resolve, reject) => {
      const out: Record<string, string> = {};
      yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
        if (err || !file) return reject(err);
        file.on('entry', (entry: any) => {
          file.openReadStream(entry, (e, stream) => {
            if (e || !stream) return reject(e);
            const parts: Buffer[] = [];
            stream.on('data', (p: Buffer) => parts.push(p));
            stream.on('end', () => {
              out[entry.fileName] = Buffer.concat(parts).toString('utf8');
              file.readEntry();
            });
          });
        });
        file.on('end', () => resolve(out));
        file.readEntry();
      });
    });
    expect(entries).toEqual({ 'one.txt': 'first file', 'two.md': '# second file' });
    expect((await server.as(bob.token).get(`/api/v1/knowledge/${id}/export`)).status).toBe(404);
  });
});
