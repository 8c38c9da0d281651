import { describe, expect, it } from 'vitest';
import { canAccess, type Principal } from './access';

const owner: Principal = { id: 'owner', role: 'user', groupIds: [] };
const member: Principal = { id: 'm', role: 'user', groupIds: ['g1'] };
const stranger: Principal = { id: 's', role: 'user', groupIds: ['g2'] };
const admin: Principal = { id: 'a', role: 'admin', groupIds: [] };

describe('canAccess', () => {
  it('lets everyone read a public resource but only the owner and admins write it', () => {
    const r = { user_id: 'owner', access_control: null };
    expect(canAccess(stranger, r, 'read')).toBe(true);
    expect(canAccess(stranger, r, 'write')).toBe(false);
    expect(canAccess(owner, r, 'write')).toBe(true);
    expect(canAccess(admin, r, 'write')).toBe(true);
  });

  it('treats an empty access control as private', () => {
    const r = { user_id: 'owner', access_control: {} };
    expect(canAccess(stranger, r, 'read')).toBe(false);
    expect(canAccess(owner, r, 'read')).toBe(true);
  });

  it('grants read through a listed group and write through the write list', () => {
    const r = {
      user_id: 'owner',
      access_control: { read: { group_ids: ['g1'], user_ids: [] }, write: { group_ids: [], user_ids: ['s'] } },
    };
    expect(canAccess(member, r, 'read')).toBe(true);
    expect(canAccess(member, r, 'write')).toBe(false);
    expect(canAccess(stranger, r, 'write')).toBe(true);
    expect(canAccess(stranger, r, 'read')).toBe(true);
  });
});
