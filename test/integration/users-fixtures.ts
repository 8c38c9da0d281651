import { randomUUID } from 'node:crypto';
import type { TestServer } from '../helpers/server';

/** A seeded user row's id, name and email. */
export interface SeededUser {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'pending' | 'admin';
  created_at: number;
  last_active_at: number;
}

/**
 * Inserts `count` users straight through the users repo (no bcrypt, so 65 take milliseconds).
 * Each gets a distinct created_at and last_active_at; `spec(i)` may set name, email and role.
 */
export async function seedUsers(
  server: TestServer,
  count: number,
  spec: (i: number) => Partial<Pick<SeededUser, 'name' | 'email' | 'role'>> = () => ({}),
): Promise<SeededUser[]> {
  const base = 1_700_000_000;
  const out: SeededUser[] = [];
  for (let i = 0; i < count; i += 1) {
    const s = spec(i);
    const tag = randomUUID().slice(0, 8);
    const row = {
      id: randomUUID(),
      name: s.name ?? `Seed ${String(i).padStart(3, '0')}`,
      email: (s.email ?? `seed-${String(i).padStart(3, '0')}-${tag}@example.com`).toLowerCase(),
      role: s.role ?? 'user',
      profile_image_url: '/user.png',
      info: '{}',
      settings: '{}',
      created_at: base + i * 10,
      updated_at: base + i * 10,
      last_active_at: base + (count - i) * 7,
    };
    await server.services.usersRepo.createWithPassword(row, null, { firstUserIsAdmin: false });
    out.push({ id: row.id, name: row.name, email: row.email, role: row.role, created_at: row.created_at, last_active_at: row.last_active_at });
  }
  return out;
}
