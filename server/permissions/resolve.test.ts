import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS } from '../contracts/permissions';
import { resolvePermissions } from './resolve';

describe('resolvePermissions', () => {
  it('gives admins every permission', () => {
    const p = resolvePermissions('admin', DEFAULT_PERMISSIONS, []);
    expect(p.workspace.tools).toBe(true);
    expect(p.sharing.public_models).toBe(true);
  });

  it('gives users the defaults when they belong to no group', () => {
    expect(resolvePermissions('user', DEFAULT_PERMISSIONS, [])).toEqual(DEFAULT_PERMISSIONS);
  });

  it('grants a permission when any group grants it, never takes one away', () => {
    const p = resolvePermissions('user', DEFAULT_PERMISSIONS, [
      { workspace: { tools: true } },
      { chat: { delete: false } },
    ]);
    expect(p.workspace.tools).toBe(true);
    expect(p.chat.delete).toBe(true);
    expect(p.sharing.public_models).toBe(false);
  });
});
