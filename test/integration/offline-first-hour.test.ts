import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Parley keeps to itself: the first hour (setup, a GGUF imported from a file, a chat with it, a
 * document searched in a knowledge base, a backup) runs in a network namespace whose only
 * network is loopback (`unshare -n`; as root, as CI runs; else in a user namespace of its own).
 * Nothing in it can reach another machine, so a step that needed the network would fail here.
 */
function inLoopbackOnlyNamespace(script: string): { status: number | null; stdout: string; stderr: string } {
  const asRoot = process.getuid?.() === 0;
  const command = `ip link set lo up && exec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(script)}`;
  const run = spawnSync('unshare', [...(asRoot ? [] : ['--user', '--map-root-user']), '--net', '--', 'sh', '-c', command], { cwd: root, encoding: 'utf8', timeout: 240_000 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the first hour with only loopback', () => {
  it('sets up, imports a GGUF, chats with it, searches a knowledge base and backs up, with no network', () => {
    const run = inLoopbackOnlyNamespace(path.join(root, 'test/offline/first-hour.ts'));
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(line, `no result line; stderr:\n${run.stderr}`).toMatch(/^\{/);
    const result = JSON.parse(line) as { ok: boolean; error?: string; seen: Record<string, any> };
    expect(result.error ?? '', run.stderr).toBe('');
    expect(run.status).toBe(0);
    const { seen } = result;
    // The namespace holds loopback and nothing else.
    expect(seen.interfaces).toEqual(['lo']);
    expect(seen.onboarding).toBe(true);
    expect(seen.role).toBe('admin');
    // No provider yet, and no Ollama on this machine: the setup screen is offered, without waiting on the network.
    expect(seen.setup).toMatchObject({ needed: true, ollama: { found: false } });
    expect(seen.model).toBe('ready');
    expect(String(seen.answer).length).toBeGreaterThan(0);
    expect(seen.done).toBe(true);
    expect(seen.search).toContain('second hook by the door');
    expect(seen.backup).toMatchObject({ exists: true, name: expect.stringMatching(/^parley-backup-/) });
  }, 300_000);
});
