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
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    await Promise.all(Array.from({ length: 20 }, () => verifyPassword('pw', stored)));
    delay.disable();
    // bcryptjs blocked the loop ≈ 70 ms per check; off the loop the worst stall stays far below one check.
    expect(delay.max / 1e6).toBeLessThan(40);
  });
});
