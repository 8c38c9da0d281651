import { randomUUID } from 'node:crypto';
import type { Db } from '../../server/platform/db/knex';
import type { ServiceClients } from './client';

let counter = 0;

/** A user created through the API, with a client that acts as them. */
export interface TestUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: string;
  token: string;
}

/** Signs up the primary admin (the first account) of a fresh server. */
export async function signupAdmin(server: ServiceClients, overrides: Partial<{ name: string; email: string; password: string }> = {}): Promise<TestUser> {
  const password = overrides.password ?? 'admin-password';
  const res = await server.anon.post('/api/v1/auths/signup', {
    name: overrides.name ?? 'Admin',
    email: overrides.email ?? 'admin@example.com',
    password,
  });
  if (res.status !== 200) throw new Error(`admin sign-up failed: ${res.status} ${res.text}`);
  return { ...res.body, password, token: res.body.token };
}

/** Creates a user with `role` through the admin add endpoint and returns their session. */
export async function buildUser(server: ServiceClients, admin: TestUser, role: 'user' | 'pending' | 'admin' = 'user', name?: string): Promise<TestUser> {
  counter += 1;
  const email = `user${counter}-${Date.now()}@example.com`;
  const password = `password-${counter}`;
  const added = await server.as(admin.token).post('/api/v1/auths/add', { name: name ?? `User ${counter}`, email, password, role });
  if (added.status !== 200) throw new Error(`add user failed: ${added.status} ${added.text}`);
  const signin = await server.anon.post('/api/v1/auths/signin', { email, password });
  if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${signin.text}`);
  return { ...signin.body, password, token: signin.body.token };
}

/** Creates a group holding `members` with `permissions`, straight in the database (for tests of other domains). */
export async function createGroupInDb(server: { services: { db: Db } }, members: TestUser[], permissions: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  await server.services.db('groups').insert({ id, name: `g-${id.slice(0, 6)}`, description: '', permissions: JSON.stringify(permissions), created_at: now, updated_at: now });
  for (const member of members) await server.services.db('group_members').insert({ group_id: id, user_id: member.id, added_at: now });
  return id;
}
