import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './built-service';

describe('modules the built service loads lazily', () => {
  it('all resolve in plain Node and hold every export the code reads from them', () => {
    // A process of its own: vitest's module interop would paper over what plain Node gives the app.
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-dist-imports.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { files: number; checked: number; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(run.status).toBe(0);
    // Every lazily loaded library of the service was found and checked (selfsigned, readability, openai, …).
    expect(report.checked).toBeGreaterThanOrEqual(30);
  }, 120_000);
});
