import bcryptjs from 'bcryptjs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('keeps verifying hashes written by the earlier bcryptjs implementation', async () => {
    const old = bcryptjs.hashSync('correct horse', 10);
    expect(await verifyPassword('correct horse', old)).toBe(true);
    expect(await verifyPassword('wrong horse', old)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
  });

  it('writes standard bcrypt hashes that verify', async () => {
    const hashed = await hashPassword('päss wörd');
    expect(hashed).toMatch(/^\$2[aby]\$10\$/);
    expect(await verifyPassword('päss wörd', hashed)).toBe(true);
    expect(bcryptjs.compareSync('päss wörd', hashed)).toBe(true);
  });

  it('leaves the event loop free while 20 passwords are checked', async () => {
    const stored = await hashPassword('pw');
    // What one check costs on the event loop when done there (as bcryptjs did), on this machine now.
    const started = performance.now();
    bcryptjs.compareSync('pw', stored);
    const oneCheckMs = performance.now() - started;
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    await Promise.all(Array.from({ length: 20 }, () => verifyPassword('pw', stored)));
    delay.disable();
    // Off the loop, the worst stall stays well below the cost of a single check.
    expect(delay.max / 1e6).toBeLessThan(Math.max(oneCheckMs / 2, 15));
  });
});
