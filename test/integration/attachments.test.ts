import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f60000000049454e44ae426082', 'hex');
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200, 0)]);
const LIMIT = 64 * 1024;

function form(files: Array<{ name: string; data: Buffer | string; field?: string; type?: string }>): FormData {
  const body = new FormData();
  for (const f of files) body.append(f.field ?? 'files', new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  return body;
}

describe('chat attachments', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  const uploadsDir = () => path.join(server.dataDir, 'uploads');
  const upload = (u: TestUser, body: FormData | string, headers: Record<string, string> = {}) =>
    server.as(u.token).raw('POST', '/api/v1/chats/attachment/upload', body, headers);

  beforeAll(async () => {
    server = await startTestServer({ envVars: { PARLEY_MAX_UPLOAD_BYTES: String(LIMIT) } });
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores several files from the `files` field and answers the attachment shape', async () => {
    const res = await upload(alice, form([{ name: 'notes.md', data: '# Title\n\nSome notes with ünïcode.' }, { name: 'pixel.png', data: PNG }]));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    const [md, png] = res.body;
    expect(md).toEqual({ id: expect.any(String), filename: 'notes.md', size: Buffer.byteLength('# Title\n\nSome notes with ünïcode.'), mime_type: 'text/markdown', url: `/api/v1/files/${md.id}/content` });
    expect(png).toMatchObject({ filename: 'pixel.png', size: PNG.length, mime_type: 'image/png' });
    expect(existsSync(path.join(uploadsDir(), md.id))).toBe(true);

    const download = await server.as(alice.token).get(md.url);
    expect(download.status).toBe(200);
    expect(download.text).toBe('# Title\n\nSome notes with ünïcode.');
    expect(download.headers.get('content-disposition')).toContain('notes.md');
  });

  it('accepts the `file` field too, and trusts content over the claimed type', async () => {
    const res = await upload(alice, form([{ name: 'data.csv', data: 'a,b\n1,2\n', field: 'file', type: 'image/png' }]));
    expect(res.status).toBe(200);
    expect(res.body[0].mime_type).toBe('text/csv');
  });

  it('refuses an executable with 400 even when it claims to be a PDF, and keeps nothing', async () => {
    const before = new Set(readdirSync(uploadsDir()));
    const res = await upload(alice, form([{ name: 'report.pdf', data: ELF, type: 'application/pdf' }]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/report\.pdf/);
    expect(res.body.detail).toMatch(/not allowed/);
    // Nothing of the refused file is kept: no new stored file or partial write holding its bytes.
    const added = readdirSync(uploadsDir()).filter((name) => !before.has(name));
    const ofTheRefusedFile = added.filter((name) => name.endsWith('.part') || (statSync(path.join(uploadsDir(), name)).isFile() && readFileSync(path.join(uploadsDir(), name)).equals(ELF)));
    expect(ofTheRefusedFile, `new entries in uploads/: ${added.join(', ')}`).toEqual([]);
  });

  it('refuses unknown binary data with 400', async () => {
    const res = await upload(alice, form([{ name: 'blob.bin', data: Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x00, 0x10]) }]));
    expect(res.status).toBe(400);
  });

  it('answers 413 for a file over the limit, removing every file of that upload', async () => {
    const before = readdirSync(uploadsDir()).length;
    const res = await upload(alice, form([{ name: 'ok.txt', data: 'fine' }, { name: 'big.txt', data: 'x'.repeat(LIMIT + 1) }]));
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/big\.txt/);
    expect(res.body.detail).toMatch(/64 KB/);
    expect(readdirSync(uploadsDir())).toHaveLength(before);
    // Exactly at the limit is fine.
    expect((await upload(alice, form([{ name: 'edge.txt', data: 'y'.repeat(LIMIT) }]))).status).toBe(200);
  });

  it('refuses empty files, bodies without files and non-multipart bodies with 400', async () => {
    expect((await upload(alice, form([{ name: 'empty.txt', data: '' }]))).status).toBe(400);
    const noFiles = new FormData();
    noFiles.append('note', 'just a field');
    const none = await upload(alice, noFiles);
    expect(none.status).toBe(400);
    expect(none.body.detail).toMatch(/files/);
    const json = await upload(alice, '{"a":1}', { 'content-type': 'application/json' });
    expect(json.status).toBe(400);
    expect(json.body.detail).toMatch(/multipart/);
  });

  it('refuses anonymous uploads with 401', async () => {
    const res = await server.anon.raw('POST', '/api/v1/chats/attachment/upload', form([{ name: 'a.txt', data: 'a' }]));
    expect(res.status).toBe(401);
  });

  it('deletes an attachment from disk, 404 afterwards, 403 for another user', async () => {
    const [file] = (await upload(alice, form([{ name: 'gone.txt', data: 'bye' }]))).body;
    expect((await server.as(bob.token).delete(`/api/v1/chats/attachment/${file.id}`)).status).toBe(403);
    expect((await server.as(bob.token).get(file.url)).status).toBe(403);
    const res = await server.as(alice.token).delete(`/api/v1/chats/attachment/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    expect(existsSync(path.join(uploadsDir(), file.id))).toBe(false);
    expect((await server.as(alice.token).delete(`/api/v1/chats/attachment/${file.id}`)).status).toBe(404);
    expect((await server.as(alice.token).get(file.url)).status).toBe(404);
  });

  it("attaches the caller's files to a chat; another user's file is 403 and an unknown one 404", async () => {
    const chat = (await server.as(alice.token).post('/api/v1/chats/new', { title: 'with files' })).body.id;
    const files = (await upload(alice, form([{ name: 'a.txt', data: 'A' }, { name: 'b.txt', data: 'B' }]))).body;
    const res = await server.as(alice.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: files.map((f: { id: string }) => f.id) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: chat, attachments: files });

    const bobs = (await upload(bob, form([{ name: 'bob.txt', data: 'B' }]))).body[0];
    expect((await server.as(alice.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: [bobs.id] })).status).toBe(403);
    expect((await server.as(alice.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: ['nope'] })).status).toBe(404);
    expect((await server.as(bob.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: [] })).status).toBe(403);
    expect((await server.as(alice.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: 'x' })).status).toBe(422);

    // Replacing the list keeps only the named ones.
    const replaced = await server.as(alice.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: [files[1].id] });
    expect(replaced.body.attachments.map((f: { id: string }) => f.id)).toEqual([files[1].id]);
  });

  it("deleting a user removes their uploads from disk", async () => {
    const carol = await buildUser(server, admin);
    const [file] = (await upload(carol, form([{ name: 'carol.txt', data: 'mine' }]))).body;
    expect(existsSync(path.join(uploadsDir(), file.id))).toBe(true);
    expect((await server.as(admin.token).delete(`/api/v1/users/${carol.id}`)).status).toBe(200);
    expect(existsSync(path.join(uploadsDir(), file.id))).toBe(false);
    expect((await server.as(admin.token).get(file.url)).status).toBe(404);
  });

  it('deleting a chat removes its attachments from disk, but not files another chat still uses', async () => {
    const api = server.as(alice.token);
    const one = (await api.post('/api/v1/chats/new', {})).body.id;
    const two = (await api.post('/api/v1/chats/new', {})).body.id;
    const [own, shared] = (await upload(alice, form([{ name: 'own.txt', data: 'own' }, { name: 'shared.txt', data: 'shared' }]))).body;
    await api.patch(`/api/v1/chats/${one}/attachments`, { attachment_ids: [own.id, shared.id] });
    await api.patch(`/api/v1/chats/${two}/attachments`, { attachment_ids: [shared.id] });
    expect((await api.delete(`/api/v1/chats/${one}`)).body).toBe(true);
    expect(existsSync(path.join(uploadsDir(), own.id))).toBe(false);
    expect(existsSync(path.join(uploadsDir(), shared.id))).toBe(true);
    expect((await api.get(own.url)).status).toBe(404);
  });
});
