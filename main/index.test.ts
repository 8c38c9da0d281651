import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
// A private folder under dist/ (not packaged, not linted), so the bundle resolves node_modules as dist/main does.
const out = path.join(root, 'dist', `.shell-smoke-${process.pid}`);

describe('main/index.ts wiring (built, run under Node against an Electron stand-in)', () => {
  let userData: string;

  beforeAll(async () => {
    userData = mkdtempSync(path.join(os.tmpdir(), 'parley-userdata-'));
    const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', logLevel: 'silent' } as const;
    await build({ ...common, entryPoints: ['main/index.ts'], outfile: path.join(out, 'index.js'), format: 'esm', packages: 'external' });
    await build({ ...common, entryPoints: ['main/preload.ts'], outfile: path.join(out, 'preload.cjs'), format: 'cjs', external: ['electron'] });
  }, 60_000);

  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  it('starts the service in the user-data folder, opens a guarded window on it, and exits cleanly on quit', () => {
    const run = spawnSync(process.execPath, ['--import', path.join(root, 'main', 'testing', 'electron-register.mjs'), path.join(out, 'index.js')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, STANDIN_USER_DATA: userData, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn', NODE_ENV: 'production' },
      timeout: 60_000,
    });
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('STANDIN '));
    expect(run.status, `${run.stderr}\n${run.stdout}`).toBe(0);
    expect(lines).toContain('STANDIN window {"sandbox":true,"contextIsolation":true,"nodeIntegration":false,"preloadExists":true}');
    // The window opens signed in as the owner of the new workspace (a one-time handover), on the setup screen.
    expect(lines.find((l) => l.startsWith('STANDIN load '))).toMatch(/^STANDIN load http:\/\/127\.0\.0\.1:\d+\/auths\/desktop-handover\?code=[\w-]+$/);
    expect(lines).toContain('STANDIN handover 303 /setup cookie=true');
    expect(lines).toContain('STANDIN application menu File|editMenu|View|windowMenu');
    expect(lines).toContain('STANDIN health 200');
    expect(lines).toContain('STANDIN external navigation prevented=true');
    expect(lines).toContain('STANDIN open external https://example.com/');
    expect(lines).toContain('STANDIN tray icon exists=true');
    expect(lines.some((l) => l.startsWith('STANDIN tray menu Open Parley|'))).toBe(true);
    for (const channel of ['parley:app-version', 'parley:lan-sharing', 'parley:open-external', 'parley:language']) expect(lines).toContain(`STANDIN ipc ${channel}`);
    // The first quit is held back until the service has closed; the second goes through.
    expect(lines.slice(-3)).toEqual(['STANDIN before-quit prevented=true', 'STANDIN before-quit prevented=false', 'STANDIN quit']);
    // Parley's data in userData/data, apart from Chromium's profile.
    expect(existsSync(path.join(userData, 'data', 'parley.db'))).toBe(true);
    expect(existsSync(path.join(userData, 'shell-state.json'))).toBe(true);
  });
});
