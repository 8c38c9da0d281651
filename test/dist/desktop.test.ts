import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signupAdmin } from '../helpers/builders';
import { freePort } from '../helpers/free-port';
import { ROOT, startBuiltService } from './built-service';

const userDataDirs: string[] = [];
afterEach(() => {
  for (const dir of userDataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh Electron user-data folder. */
function userDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-userdata-'));
  userDataDirs.push(dir);
  return dir;
}

/**
 * Runs the built desktop app, dist/main/index.js (what the packaged app starts), under Node
 * against an Electron stand-in (main/testing/electron-stand-in.mjs) that prints what the shell
 * does as `STANDIN` lines, loads the window's URL, then quits.
 */
function runDesktop(userData: string, env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['--import', path.join(ROOT, 'main', 'testing', 'electron-register.mjs'), path.join(ROOT, 'dist', 'main', 'index.js')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, STANDIN_USER_DATA: userData, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    timeout: 90_000,
  });
  return { ...run, lines: run.stdout.split('\n').filter((l) => l.startsWith('STANDIN ')) };
}

describe('the built desktop app (dist/main/index.js, against an Electron stand-in)', () => {
  it('starts the service in the user-data folder, opens a guarded window on it, and exits cleanly on quit', () => {
    const userData = userDataDir();
    const run = runDesktop(userData);
    const { lines } = run;
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
  }, 120_000);

  it('starts with the HTTPS LAN listener up when sharing was left on, making its certificate on the way', async () => {
    const userData = userDataDir();
    const dataDir = path.join(userData, 'data');
    const lanPort = await freePort();
    // An earlier run (here the headless service on the same data folder) turned sharing on.
    const earlier = await startBuiltService({ dataDir });
    try {
      const admin = await signupAdmin(earlier);
      const on = await earlier.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port: lanPort });
      expect(on.status, on.text).toBe(200);
      expect(on.body).toMatchObject({ enabled: true, listening: true, tls: 'generated' });
    } finally {
      await earlier.close();
    }
    // Without its certificate, the desktop start has to make one (selfsigned, loaded lazily in the bundle).
    rmSync(path.join(dataDir, 'lan-tls'), { recursive: true, force: true });

    const run = runDesktop(userData, { STANDIN_LAN_PORT: String(lanPort) });
    expect(run.status, `${run.stderr}\n${run.stdout}`).toBe(0);
    expect(run.lines.find((l) => l.startsWith('STANDIN lan '))).toMatch(/^STANDIN lan https 200 ([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(run.stdout).not.toMatch(/LAN sharing is on but could not start/);
    // The tray shows sharing on.
    expect(run.lines.filter((l) => l.startsWith('STANDIN tray menu ')).at(-1)).toContain('|Share on local network [on]|');
    expect(existsSync(path.join(dataDir, 'lan-tls', 'generated-certificate.pem'))).toBe(true);
  }, 180_000);
});
