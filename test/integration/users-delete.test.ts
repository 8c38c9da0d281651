import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { dialectOf, rawRows, type Db } from '../../server/platform/db/knex';

const U = '/api/v1/users';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f60000000049454e44ae426082', 'hex');

function imageForm(data: Buffer, field = 'file'): FormData {
  const body = new FormData();
  body.append(field, new Blob([data], { type: 'image/png' }), 'me.png');
  return body;
}

/** Every foreign key to users: table and column (SQLite's PRAGMA, PostgreSQL's catalog). */
async function keysToUsers(db: Db): Promise<Array<{ table: string; column: string }>> {
  if (dialectOf(db) === 'postgres') {
    return rawRows<{ table: string; column: string }>(
      db,
      `SELECT cl.relname AS "table", a.attname AS "column" FROM pg_constraint c
       JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
       WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass`,
    );
  }
  const tables = await rawRows<{ name: string }>(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  const out: Array<{ table: string; column: string }> = [];
  for (const { name } of tables) {
    const keys = await rawRows<{ table: string; from: string }>(db, `PRAGMA foreign_key_list("${name}")`);
    for (const key of keys.filter((k) => k.table === 'users')) out.push({ table: name, column: key.from });
  }
  return out;
}

/** Every row in any table whose foreign key to users points at `userId`. */
async function rowsReferencing(server: TestServer, userId: string): Promise<Record<string, number>> {
  const db = server.services.db;
  const found: Record<string, number> = {};
  for (const key of await keysToUsers(db)) {
    const [row] = await rawRows<{ n: number }>(db, `SELECT COUNT(*) AS n FROM "${key.table}" WHERE "${key.column}" = ?`, [userId]);
    if (row && Number(row.n) > 0) found[`${key.table}.${key.column}`] = Number(row.n);
  }
  const [user] = await rawRows<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM users WHERE id = ?', [userId]);
  if (user && Number(user.n) > 0) found['users.id'] = Number(user.n);
  return found;
}

describe('deleting a user', () => {
  let server: TestServer;
  let admin: TestUser;
  let second: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    second = await buildUser(server, admin, 'admin', 'Second Admin');
    alice = await buildUser(server, admin, 'user', 'Alice');
  });
  afterAll(async () => {
    await server.close();
  });

  it('removes the account and everything it owns, leaving no rows and no files behind', async () => {
    const victim = await buildUser(server, admin, 'user', 'Victim');
    const as = server.as(victim.token);
    const key = await as.post('/api/v1/auths/api_key');
    expect(key.status).toBe(200);
    const group = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Team', description: '' });
    await server.as(admin.token).post(`/api/v1/groups/id/${group.body.id}/users/add`, { user_ids: [victim.id, alice.id] });
    await as.post(`${U}/user/settings/update`, { theme: 'dark' });
    const chat = await as.post('/api/v1/chats/new', { title: 'Secret plans' });
    expect(chat.status).toBe(200);
    const files = new FormData();
    files.append('files', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    const attachment = await as.raw('POST', '/api/v1/chats/attachment/upload', files);
    expect(attachment.status).toBe(200);
    const fileId = attachment.body[0].id as string;
    const image = await as.raw('POST', `${U}/user/profile/image`, imageForm(PNG));
    expect(image.status).toBe(200);
    const imageDir = path.join(server.dataDir, 'uploads', 'profile-images', victim.id);
    expect(existsSync(imageDir)).toBe(true);
    expect(existsSync(path.join(server.dataDir, 'uploads', fileId))).toBe(true);
    expect(Object.keys(await rowsReferencing(server, victim.id)).length).toBeGreaterThan(3);
    expect(await server.services.secrets.get(`api-key:${victim.id}`)).toBe(key.body.api_key);

    const res = await server.as(admin.token).delete(`${U}/${victim.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);

    expect(await rowsReferencing(server, victim.id)).toEqual({});
    expect(existsSync(imageDir)).toBe(false);
    expect(existsSync(path.join(server.dataDir, 'uploads', fileId))).toBe(false);
    expect(await server.services.secrets.get(`api-key:${victim.id}`)).toBeNull();
    expect((await server.as(victim.token).get('/api/v1/auths/')).status).toBe(401);
    expect((await server.as(key.body.api_key).get('/api/v1/auths/')).status).toBe(401);
    expect((await server.as(admin.token).get(`${U}/${victim.id}`)).status).toBe(404);
    const team = await server.as(admin.token).get(`/api/v1/groups/id/${group.body.id}`);
    expect(team.body.user_ids).toEqual([alice.id]);
  });

  it('runs other domains’ hooks inside the transaction, and rolls back when one fails', async () => {
    const victim = await buildUser(server, admin, 'user', 'Hooked');
    const seen: string[] = [];
    let fail = true;
    server.services.users.onUserDeleted(async (userId, trx) => {
      const rows = (await trx('users').where({ id: userId }).select('id')) as unknown[];
      seen.push(`during:${rows.length}`);
      if (fail && userId === victim.id) throw new Error('chat clean-up broke');
    });
    server.services.users.afterUserDeleted(async (userId) => {
      if (userId === victim.id) seen.push('after');
    });
    const broken = await server.as(admin.token).delete(`${U}/${victim.id}`);
    expect(broken.status).toBe(500);
    expect((await server.as(victim.token).get('/api/v1/auths/')).status).toBe(200);
    expect(seen).toEqual(['during:1']);

    fail = false;
    const ok = await server.as(admin.token).delete(`${U}/${victim.id}`);
    expect(ok.status).toBe(200);
    expect(seen).toEqual(['during:1', 'during:1', 'after']);
    expect(await rowsReferencing(server, victim.id)).toEqual({});
  });

  it('refuses to delete the primary admin, with 403', async () => {
    const res = await server.as(second.token).delete(`${U}/${admin.id}`);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/primary admin/);
    expect((await server.as(admin.token).get(`${U}/all`)).status).toBe(200);
  });

  it('refuses an admin deleting themself here, with 403', async () => {
    const res = await server.as(second.token).delete(`${U}/${second.id}`);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/your own account/);
    const primary = await server.as(admin.token).delete(`${U}/${admin.id}`);
    expect(primary.status).toBe(403);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await server.as(admin.token).delete(`${U}/no-such-user`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/not found/i);
  });

  it('is for admins only', async () => {
    const pending = await buildUser(server, admin, 'pending');
    expect((await server.as(alice.token).delete(`${U}/${pending.id}`)).status).toBe(403);
    expect((await server.as(pending.token).delete(`${U}/${alice.id}`)).status).toBe(403);
    expect((await server.anon.delete(`${U}/${alice.id}`)).status).toBe(401);
    expect((await server.as(alice.token).get('/api/v1/auths/')).status).toBe(200);
  });

  it('lets an admin delete another admin', async () => {
    const third = await buildUser(server, admin, 'admin', 'Third');
    const res = await server.as(second.token).delete(`${U}/${third.id}`);
    expect(res.status).toBe(200);
    expect(await rowsReferencing(server, third.id)).toEqual({});
  });
});
