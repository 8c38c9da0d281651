import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { seedUsers, type SeededUser } from './users-fixtures';

const U = '/api/v1/users';

describe('user list, search and the caller’s own data', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let pending: TestUser;
  let seeded: SeededUser[];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice Liddell');
    pending = await buildUser(server, admin, 'pending', 'Pat Pending');
    seeded = await seedUsers(server, 65, (i) => ({
      name: i === 7 ? 'Zoë 100%_Special' : `Member ${String(i).padStart(3, '0')}`,
      email: i === 11 ? 'Carol.Mixed@Example.COM' : undefined,
      role: i % 13 === 0 ? 'pending' : 'user',
    }));
  });
  afterAll(async () => {
    await server.close();
  });

  const total = () => 65 + 3;

  it('pages the admin list 30 at a time with the total count, each user exactly once', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => server.as(admin.token).get(`${U}/?page=${page}`)));
    for (const res of pages) {
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(total());
    }
    expect(pages.map((p) => p.body.users.length)).toEqual([30, 30, 8, 0]);
    const ids = pages.flatMap((p) => p.body.users.map((u: { id: string }) => u.id));
    expect(new Set(ids).size).toBe(total());
    expect(pages[0]!.body.users[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      email: expect.any(String),
      role: expect.stringMatching(/^(pending|user|admin)$/),
      profile_image_url: expect.any(String),
      created_at: expect.any(Number),
      last_active_at: expect.any(Number),
    });
  });

  it('lists newest first by default, without a page meaning page 1', async () => {
    const res = await server.as(admin.token).get(`${U}/`);
    expect(res.status).toBe(200);
    const created = res.body.users.map((u: { created_at: number }) => u.created_at);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(res.body.users).toHaveLength(30);
    const noSlash = await server.as(admin.token).get(U);
    expect(noSlash.body).toEqual(res.body);
  });

  it('orders by name, email, role, created_at and last_active_at in both directions', async () => {
    const all = (await server.as(admin.token).get(`${U}/all`)).body.users as Array<Record<string, string | number>>;
    for (const field of ['name', 'email', 'role', 'created_at', 'last_active_at']) {
      for (const direction of ['asc', 'desc'] as const) {
        const got: Array<Record<string, string | number>> = [];
        for (let page = 1; page <= 3; page += 1) {
          const res = await server.as(admin.token).get(`${U}/?order_by=${field}&direction=${direction}&page=${page}`);
          expect(res.status).toBe(200);
          got.push(...res.body.users);
        }
        expect(got).toHaveLength(all.length);
        const key = (u: Record<string, string | number>) => (typeof u[field] === 'string' ? String(u[field]).toLowerCase() : u[field]!);
        for (let i = 1; i < got.length; i += 1) {
          const a = key(got[i - 1]!);
          const b = key(got[i]!);
          if (direction === 'asc') expect(a <= b, `${field} ${direction} at ${i}: ${a} then ${b}`).toBe(true);
          else expect(a >= b, `${field} ${direction} at ${i}: ${a} then ${b}`).toBe(true);
        }
      }
    }
    const byName = await server.as(admin.token).get(`${U}/?order_by=name`);
    expect(byName.body.users[0].name).toBe('Admin');
  });

  it('filters by name or email case-insensitively, counting only matches', async () => {
    const byName = await server.as(admin.token).get(`${U}/?query=${encodeURIComponent('mEmBeR 00')}`);
    expect(byName.status).toBe(200);
    expect(byName.body.count).toBe(9); // Member 000–009, but 007 is named Zoë
    expect(byName.body.users.every((u: { name: string }) => u.name.startsWith('Member 00'))).toBe(true);

    const byEmail = await server.as(admin.token).get(`${U}/?query=CAROL.mixed`);
    expect(byEmail.body.count).toBe(1);
    expect(byEmail.body.users[0].email).toBe('carol.mixed@example.com');

    const wildcard = await server.as(admin.token).get(`${U}/?query=${encodeURIComponent('100%_')}`);
    expect(wildcard.body.users.map((u: { name: string }) => u.name)).toEqual(['Zoë 100%_Special']);
    const literalPercent = await server.as(admin.token).get(`${U}/?query=${encodeURIComponent('%')}`);
    expect(literalPercent.body.count).toBe(1);

    const none = await server.as(admin.token).get(`${U}/?query=nobody-has-this`);
    expect(none.body).toEqual({ users: [], count: 0 });
  });

  it('filters by group membership, combined with the text filter and paging', async () => {
    const members = seeded.slice(0, 35).map((s) => s.id);
    const group = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Big team', description: '' });
    await server.as(admin.token).post(`/api/v1/groups/id/${group.body.id}/users/add`, { user_ids: members });
    const page1 = await server.as(admin.token).get(`${U}/?group_id=${group.body.id}`);
    const page2 = await server.as(admin.token).get(`${U}/?group_id=${group.body.id}&page=2`);
    expect(page1.body.count).toBe(35);
    expect(page1.body.users).toHaveLength(30);
    expect(page2.body.users).toHaveLength(5);
    expect(new Set([...page1.body.users, ...page2.body.users].map((u: { id: string }) => u.id))).toEqual(new Set(members));

    const narrowed = await server.as(admin.token).get(`${U}/?group_id=${group.body.id}&query=member%2000`);
    expect(narrowed.body.count).toBe(10 - 1); // Member 007 is named Zoë
    const unknownGroup = await server.as(admin.token).get(`${U}/?group_id=no-such-group`);
    expect(unknownGroup.body).toEqual({ users: [], count: 0 });
  });

  it('refuses bad list parameters with 422 naming the parameter', async () => {
    for (const [qs, field] of [
      ['order_by=password', 'order_by'],
      ['direction=sideways', 'direction'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
    ] as const) {
      const res = await server.as(admin.token).get(`${U}/?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body.detail).toContain(field);
    }
  });

  it('keeps the user list and /all for admins', async () => {
    for (const path of [`${U}/`, `${U}/all`]) {
      expect((await server.anon.get(path)).status).toBe(401);
      expect((await server.as(alice.token).get(path)).status).toBe(403);
      expect((await server.as(pending.token).get(path)).status).toBe(403);
    }
    const all = await server.as(admin.token).get(`${U}/all`);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(total());
    expect(all.body.users).toHaveLength(total());
  });

  it('lets any verified user search people by name or whole email, seeing only id and name', async () => {
    const res = await server.as(alice.token).get(`${U}/search?query=${encodeURIComponent(' Carol.MIXED@example.com ')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users: [{ id: seeded[11]!.id, name: 'Member 011' }] });
    const byName = await server.as(alice.token).get(`${U}/search?query=member%2000`);
    expect(byName.body.users.length).toBeGreaterThan(0);
    for (const u of byName.body.users) expect(Object.keys(u).sort()).toEqual(['id', 'name']);
    // pending accounts are not offered (Member 000 and 013… are pending)
    expect(byName.body.users.map((u: { name: string }) => u.name)).not.toContain('Member 000');
    expect((await server.as(pending.token).get(`${U}/search?query=a`)).status).toBe(403);
    expect((await server.anon.get(`${U}/search?query=a`)).status).toBe(401);
  });

  it('does not let a user discover addresses by email substrings; an admin may', async () => {
    // An address oracle: "carol." → a hit says some address starts that way, and its owner's name.
    for (const probe of ['carol.MIXED', 'carol.mixed@example.co', '@example.com', 'seed-0', 'example']) {
      const res = await server.as(alice.token).get(`${U}/search?query=${encodeURIComponent(probe)}`);
      expect(res.status).toBe(200);
      expect(res.body.users).toEqual([]);
    }
    const byAdmin = await server.as(admin.token).get(`${U}/search?query=carol.MIXED`);
    expect(byAdmin.body).toEqual({ users: [{ id: seeded[11]!.id, name: 'Member 011' }] });
  });

  it('saves UI settings whole per user, replacing the previous object', async () => {
    expect((await server.as(alice.token).get(`${U}/user/settings`)).body).toEqual({});
    const first = await server.as(alice.token).post(`${U}/user/settings/update`, { theme: 'dark', language: 'fr', sidebar: { collapsed: true }, extra: { a: 1 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ theme: 'dark', language: 'fr', sidebar: { collapsed: true }, extra: { a: 1 } });
    const second = await server.as(alice.token).post(`${U}/user/settings/update`, { theme: 'light' });
    expect(second.body).toEqual({ theme: 'light' });
    expect((await server.as(alice.token).get(`${U}/user/settings`)).body).toEqual({ theme: 'light' });
    expect((await server.as(admin.token).get(`${U}/user/settings`)).body).toEqual({});
  });

  it('refuses settings that are not an object or have wrongly typed known keys', async () => {
    const array = await server.as(alice.token).post(`${U}/user/settings/update`, ['dark']);
    expect(array.status).toBe(422);
    const badTheme = await server.as(alice.token).post(`${U}/user/settings/update`, { theme: 3 });
    expect(badTheme.status).toBe(422);
    expect(badTheme.body.detail).toContain('theme');
    const badSidebar = await server.as(alice.token).post(`${U}/user/settings/update`, { sidebar: { collapsed: 'yes' } });
    expect(badSidebar.body.detail).toContain('sidebar.collapsed');
    const malformed = await server.as(alice.token).raw('POST', `${U}/user/settings/update`, '{"theme":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect((await server.as(pending.token).post(`${U}/user/settings/update`, { theme: 'x' })).status).toBe(403);
    expect((await server.as(pending.token).get(`${U}/user/settings`)).status).toBe(403);
  });

  it('merges info updates over the stored keys', async () => {
    expect((await server.as(alice.token).get(`${U}/user/info`)).body).toEqual({});
    await server.as(alice.token).post(`${U}/user/info/update`, { logo_url: 'a.png', team: 'red' });
    const merged = await server.as(alice.token).post(`${U}/user/info/update`, { team: 'blue', floor: 3 });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ logo_url: 'a.png', team: 'blue', floor: 3 });
    expect((await server.as(alice.token).get(`${U}/user/info`)).body).toEqual(merged.body);
    expect((await server.as(alice.token).post(`${U}/user/info/update`, [1, 2])).status).toBe(422);
    expect((await server.as(alice.token).post(`${U}/user/info/update`, 'text')).status).toBe(400);
    expect((await server.as(pending.token).get(`${U}/user/info`)).status).toBe(403);
  });

  it('shows any user’s name, picture and presence to verified users, and 404 for unknown ids', async () => {
    const res = await server.as(alice.token).get(`${U}/${admin.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Admin', profile_image_url: '/user.png', active: false });
    expect((await server.as(alice.token).get(`${U}/${admin.id}/active`)).body).toEqual({ active: false });
    expect((await server.as(alice.token).get(`${U}/no-such-user`)).status).toBe(404);
    expect((await server.as(alice.token).get(`${U}/no-such-user/active`)).status).toBe(404);
    expect((await server.as(pending.token).get(`${U}/${admin.id}`)).status).toBe(403);
    expect((await server.anon.get(`${U}/${admin.id}`)).status).toBe(401);
  });

  it('finds the owner of a shared chat through the resolver, and 404 for unknown shares', async () => {
    const unknown = await server.as(alice.token).get(`${U}/shared-nope`);
    expect(unknown.status).toBe(404);
    server.services.users.setSharedChatOwnerResolver(async (chatId) => (chatId === 'chat-1' ? alice.id : undefined));
    const found = await server.as(admin.token).get(`${U}/shared-chat-1`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ name: 'Alice Liddell', profile_image_url: '/user.png', active: false });
    expect((await server.as(admin.token).get(`${U}/shared-chat-2`)).status).toBe(404);
  });

  it('lists the groups the caller belongs to at /groups (not read as a user id)', async () => {
    const g1 = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Readers', description: 'r' });
    await server.as(admin.token).post('/api/v1/groups/create', { name: 'Others', description: '' });
    await server.as(admin.token).post(`/api/v1/groups/id/${g1.body.id}/users/add`, { user_ids: [alice.id] });
    const res = await server.as(alice.token).get(`${U}/groups`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ id: g1.body.id, name: 'Readers', description: 'r', user_ids: [alice.id] });
    expect((await server.as(admin.token).get(`${U}/groups`)).body).toEqual([]);
    expect((await server.as(pending.token).get(`${U}/groups`)).status).toBe(403);
  });
});

describe('admin update of a user', () => {
  let server: TestServer;
  let admin: TestUser;
  let second: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let pending: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    second = await buildUser(server, admin, 'admin', 'Second Admin');
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    pending = await buildUser(server, admin, 'pending', 'Pending');
  });
  afterAll(async () => {
    await server.close();
  });

  it('changes name, email (lower-cased), role and picture, merges info and answers the updated user', async () => {
    await server.as(alice.token).post(`${U}/user/info/update`, { keep: 1, team: 'red' });
    const res = await server.as(admin.token).post(`${U}/${alice.id}/update`, {
      name: 'Alice Cooper',
      email: 'Alice.Cooper@Example.com',
      role: 'user',
      profile_image_url: 'data:image/png;base64,iVBORw0KGgo=',
      info: { team: 'blue' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: alice.id,
      name: 'Alice Cooper',
      email: 'alice.cooper@example.com',
      role: 'user',
      profile_image_url: 'data:image/png;base64,iVBORw0KGgo=',
      info: { keep: 1, team: 'blue' },
      created_at: expect.any(Number),
    });
    const signin = await server.anon.post('/api/v1/auths/signin', { email: 'alice.cooper@example.com', password: alice.password });
    expect(signin.status).toBe(200);
  });

  it('sets a new password only when one is given', async () => {
    const empty = await server.as(admin.token).post(`${U}/${bob.id}/update`, { name: 'Bob', password: '' });
    expect(empty.status).toBe(200);
    expect((await server.anon.post('/api/v1/auths/signin', { email: bob.email, password: bob.password })).status).toBe(200);
    const changed = await server.as(admin.token).post(`${U}/${bob.id}/update`, { password: 'brand-new-secret' });
    expect(changed.status).toBe(200);
    expect((await server.anon.post('/api/v1/auths/signin', { email: bob.email, password: bob.password })).status).toBe(400);
    expect((await server.anon.post('/api/v1/auths/signin', { email: bob.email, password: 'brand-new-secret' })).status).toBe(200);
  });

  it('refuses an email that another account uses with 400', async () => {
    const res = await server.as(admin.token).post(`${U}/${bob.id}/update`, { email: second.email.toUpperCase() });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/already registered/);
    const own = await server.as(admin.token).post(`${U}/${bob.id}/update`, { email: bob.email });
    expect(own.status).toBe(200);
  });

  it('refuses invalid fields with 422 naming them', async () => {
    const role = await server.as(admin.token).post(`${U}/${bob.id}/update`, { role: 'owner' });
    expect(role.status).toBe(422);
    expect(role.body.detail).toContain('role');
    const email = await server.as(admin.token).post(`${U}/${bob.id}/update`, { email: 'not-an-email' });
    expect(email.status).toBe(422);
    expect(email.body.detail).toContain('email');
    const long = await server.as(admin.token).post(`${U}/${bob.id}/update`, { password: 'x'.repeat(73) });
    expect(long.status).toBe(422);
    expect(long.body.detail).toContain('password');
  });

  it('is for admins only, checked before the body', async () => {
    expect((await server.as(alice.token).post(`${U}/${bob.id}/update`, { role: 'admin' })).status).toBe(403);
    expect((await server.as(pending.token).post(`${U}/${bob.id}/update`, { role: 'nonsense' })).status).toBe(403);
    expect((await server.anon.post(`${U}/${bob.id}/update`, { name: 'x' })).status).toBe(401);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await server.as(admin.token).post(`${U}/no-such-user/update`, { name: 'x' });
    expect(res.status).toBe(404);
  });

  it('lets nobody but the primary admin change the primary admin', async () => {
    const res = await server.as(second.token).post(`${U}/${admin.id}/update`, { name: 'Hijacked' });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/primary admin/);
    const role = await server.as(second.token).post(`${U}/${admin.id}/update`, { role: 'user' });
    expect(role.status).toBe(403);
    const self = await server.as(admin.token).post(`${U}/${admin.id}/update`, { name: 'Boss' });
    expect(self.status).toBe(200);
    expect(self.body.name).toBe('Boss');
  });

  it('keeps the primary admin an admin, even when they ask', async () => {
    const res = await server.as(admin.token).post(`${U}/${admin.id}/update`, { role: 'user' });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/role cannot be changed/);
    expect((await server.as(admin.token).get(`${U}/all`)).status).toBe(200);
  });

  it('never demotes the last admin', async () => {
    // Only reachable without a primary admin flag (e.g. a data dir from an older build): simulate that.
    const s = await startTestServer();
    try {
      const only = await signupAdmin(s);
      await s.services.usersRepo.update(only.id, { is_primary_admin: false });
      const res = await s.as(only.token).post(`${U}/${only.id}/update`, { role: 'user' });
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/last admin/);
      const other = await buildUser(s, only, 'admin');
      const now = await s.as(other.token).post(`${U}/${only.id}/update`, { role: 'user' });
      expect(now.status).toBe(200);
      const last = await s.as(other.token).post(`${U}/${other.id}/update`, { role: 'pending' });
      expect(last.status).toBe(403);
    } finally {
      await s.close();
    }
  });

  it('applies a role change to the user’s existing session at once', async () => {
    const carol = await buildUser(server, admin, 'user', 'Carol');
    expect((await server.as(carol.token).get(`${U}/all`)).status).toBe(403);
    await server.as(admin.token).post(`${U}/${carol.id}/update`, { role: 'admin' });
    expect((await server.as(carol.token).get(`${U}/all`)).status).toBe(200);
    await server.as(second.token).post(`${U}/${carol.id}/update`, { role: 'pending' });
    expect((await server.as(carol.token).get(`${U}/permissions`)).status).toBe(403);
  });
});
