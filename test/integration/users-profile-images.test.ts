import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const U = '/api/v1/users';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f60000000049454e44ae426082', 'hex');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

function form(data: Buffer | string, options: { field?: string; type?: string; name?: string } = {}): FormData {
  const body = new FormData();
  body.append(options.field ?? 'file', new Blob([data], { type: options.type ?? 'image/png' }), options.name ?? 'me.png');
  return body;
}

describe('profile images', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let pending: TestUser;
  const imagesDir = () => path.join(server.dataDir, 'uploads', 'profile-images');
  const upload = (u: TestUser, body: FormData | string | Uint8Array, headers: Record<string, string> = {}) =>
    server.as(u.token).raw('POST', `${U}/user/profile/image`, body, headers);
  const fileCount = () => (existsSync(imagesDir()) ? readdirSync(imagesDir(), { recursive: true }).length : 0);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    pending = await buildUser(server, admin, 'pending', 'Pending');
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores an uploaded image under the user’s folder and serves it back to verified users', async () => {
    const res = await upload(alice, form(PNG));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: expect.any(String), filename: expect.stringMatching(/\.png$/), storage_path: expect.any(String) });
    expect(res.body.storage_path).toBe(`profile-images/${alice.id}/${res.body.filename}`);
    expect(res.body.url).toBe(`${U}/profile/image?path=${encodeURIComponent(res.body.storage_path)}`);
    expect(existsSync(path.join(imagesDir(), alice.id, res.body.filename))).toBe(true);

    for (const viewer of [alice, bob, admin]) {
      const got = await fetch(`${server.url}${res.body.url}`, { headers: { authorization: `Bearer ${viewer.token}` } });
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
    }
    expect((await server.as(pending.token).get(res.body.url)).status).toBe(403);
    expect((await server.anon.get(res.body.url)).status).toBe(401);
  });

  it('judges the real bytes, not the declared type or name', async () => {
    const gif = await upload(bob, form(GIF, { type: 'application/octet-stream', name: 'avatar.bin' }));
    expect(gif.status).toBe(200);
    expect(gif.body.filename).toMatch(/\.gif$/);
    const served = await server.as(bob.token).get(gif.body.url);
    expect(served.headers.get('content-type')).toBe('image/gif');
  });

  it('refuses files that are not images with 400, keeping nothing', async () => {
    const before = fileCount();
    for (const [data, label] of [
      [PDF, 'a PDF named .png'],
      [Buffer.from('just some text pretending to be a picture'), 'text'],
      [SVG, 'an SVG with a script'],
      [Buffer.alloc(0), 'an empty file'],
    ] as const) {
      const res = await upload(alice, form(data, { type: 'image/png' }));
      expect(res.status, label).toBe(400);
      expect(res.body.detail, label).toMatch(/not an image|empty/);
    }
    expect(fileCount()).toBe(before);
  });

  it('refuses an image over 5 MB with 413, whether or not its size was announced far ahead', async () => {
    const before = fileCount();
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const res = await upload(alice, form(big));
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/larger than 5 MB/);
    const huge = Buffer.concat([PNG, Buffer.alloc(12 * 1024 * 1024, 1)]);
    const early = await upload(alice, form(huge));
    expect(early.status).toBe(413);
    expect(fileCount()).toBe(before);
    // the service is still fine afterwards
    expect((await upload(alice, form(PNG))).status).toBe(200);
  });

  it('refuses requests without a file in the `file` field, or not multipart, with 400', async () => {
    const wrongField = await upload(alice, form(PNG, { field: 'image' }));
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.detail).toMatch(/'file'/);
    const json = await server.as(alice.token).post(`${U}/user/profile/image`, { file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.detail).toMatch(/multipart/);
    const noBoundary = await upload(alice, 'garbage', { 'content-type': 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    const truncated = await upload(alice, '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n', {
      'content-type': 'multipart/form-data; boundary=abc',
    });
    expect(truncated.status).toBe(400);
  });

  it('refuses pending and anonymous uploads before reading them', async () => {
    expect((await upload(pending, form(PNG))).status).toBe(403);
    expect((await server.anon.raw('POST', `${U}/user/profile/image`, form(PNG))).status).toBe(401);
  });

  it('never serves or deletes a file outside the profile image folder', async () => {
    writeFileSync(path.join(server.dataDir, 'uploads', 'secret.png'), PNG);
    // On PostgreSQL the data dir has no database file: a file of that name stands in as the target.
    if (!existsSync(path.join(server.dataDir, 'parley.db'))) writeFileSync(path.join(server.dataDir, 'parley.db'), 'stand-in');
    const attempts = [
      '../parley.db',
      '../../parley.db',
      'profile-images/../../parley.db',
      `profile-images/${alice.id}/../../secret.png`,
      `profile-images/${alice.id}/../../../parley.db`,
      'profile-images/..%2F..%2Fparley.db',
      '/etc/passwd',
      `${server.dataDir}/parley.db`,
      'profile-images\\..\\..\\parley.db',
      `profile-images/${alice.id}/.`,
      `profile-images/${alice.id}`,
      'secret.png',
      `profile-images/${alice.id}/x.png\u0000.txt`,
    ];
    for (const attempt of attempts) {
      const got = await server.as(admin.token).get(`${U}/profile/image?path=${encodeURIComponent(attempt)}`);
      expect([400, 404], `GET ${attempt}`).toContain(got.status);
      expect(got.headers.get('content-type'), attempt).toContain('application/json');
      const del = await server.as(admin.token).delete(`${U}/profile/image?path=${encodeURIComponent(attempt)}`);
      expect([400, 404], `DELETE ${attempt}`).toContain(del.status);
    }
    expect(existsSync(path.join(server.dataDir, 'parley.db'))).toBe(true);
    expect(existsSync(path.join(server.dataDir, 'uploads', 'secret.png'))).toBe(true);
    const raw = await fetch(`${server.url}${U}/profile/image?path=profile-images/../../parley.db`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(raw.status).toBe(400);
  });

  it('answers 404 for a well-formed path to no image, and 400 without a path', async () => {
    const missing = await server.as(alice.token).get(`${U}/profile/image?path=profile-images/${alice.id}/00000000-0000-0000-0000-000000000000.png`);
    expect(missing.status).toBe(404);
    const none = await server.as(alice.token).get(`${U}/profile/image`);
    expect(none.status).toBe(400);
    expect(none.body.detail).toContain('path');
  });

  it('lets users delete only their own images; admins may delete anyone’s', async () => {
    const mine = await upload(alice, form(PNG));
    const q = `?path=${encodeURIComponent(mine.body.storage_path)}`;
    const byBob = await server.as(bob.token).delete(`${U}/profile/image${q}`);
    expect(byBob.status).toBe(403);
    expect((await server.as(pending.token).delete(`${U}/profile/image${q}`)).status).toBe(403);
    expect((await server.as(alice.token).get(`${U}/profile/image${q}`)).status).toBe(200);

    const own = await server.as(alice.token).delete(`${U}/profile/image${q}`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ success: true });
    expect((await server.as(alice.token).get(`${U}/profile/image${q}`)).status).toBe(404);
    expect((await server.as(alice.token).delete(`${U}/profile/image${q}`)).status).toBe(404);

    const bobs = await upload(bob, form(GIF));
    const byAdmin = await server.as(admin.token).delete(`${U}/profile/image?path=${encodeURIComponent(bobs.body.storage_path)}`);
    expect(byAdmin.body).toEqual({ success: true });
  });

  it('puts a profile back on the default picture when its image is deleted', async () => {
    const img = await upload(alice, form(PNG));
    const set = await server.as(alice.token).post('/api/v1/auths/update/profile', { name: 'Alice', profile_image_url: img.body.url });
    expect(set.status).toBe(200);
    expect((await server.as(bob.token).get(`${U}/${alice.id}`)).body.profile_image_url).toBe(img.body.url);
    await server.as(alice.token).delete(`${U}/profile/image?path=${encodeURIComponent(img.body.storage_path)}`);
    expect((await server.as(bob.token).get(`${U}/${alice.id}`)).body.profile_image_url).toBe('/user.png');
  });

  it('serves the default avatar at /user.png without signing in', async () => {
    const res = await fetch(`${server.url}/user.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);
    expect(bytes.readUInt32BE(16)).toBe(128);
  });
});
