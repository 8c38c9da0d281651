import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptLegacyDataDir, appUserDataDir, defaultDataDir, legacyDataDirs, unpackedPath } from './paths';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('default data dir', () => {
  it('is one folder per OS, `data` inside the desktop app’s user-data folder', () => {
    const home = os.homedir();
    expect(defaultDataDir('linux', {})).toBe(path.join(home, '.config', 'Parley', 'data'));
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/cfg' })).toBe(path.join('/cfg', 'Parley', 'data'));
    expect(defaultDataDir('darwin', {})).toBe(path.join(home, 'Library', 'Application Support', 'Parley', 'data'));
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' })).toBe(path.join('C:\\Users\\ada\\AppData\\Roaming', 'Parley', 'data'));
    for (const platform of ['linux', 'darwin', 'win32'] as const) expect(defaultDataDir(platform, {})).toBe(path.join(appUserDataDir(platform, {}), 'data'));
  });

  it('moves data from an old default folder once, leaving Chromium’s files where they are', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'parley-paths-'));
    dirs.push(root);
    const legacy = path.join(root, 'Parley');
    mkdirSync(path.join(legacy, 'uploads'), { recursive: true });
    writeFileSync(path.join(legacy, 'parley.db'), 'db');
    writeFileSync(path.join(legacy, 'uploads', 'a.txt'), 'a');
    writeFileSync(path.join(legacy, 'Cookies'), 'chromium');
    const target = path.join(legacy, 'data');
    expect(adoptLegacyDataDir(target, [legacy])).toBe(legacy);
    expect(readFileSync(path.join(target, 'parley.db'), 'utf8')).toBe('db');
    expect(readFileSync(path.join(target, 'uploads', 'a.txt'), 'utf8')).toBe('a');
    expect(existsSync(path.join(legacy, 'Cookies'))).toBe(true);
    expect(existsSync(path.join(target, 'Cookies'))).toBe(false);
    // Once the new folder holds a database, nothing moves again.
    writeFileSync(path.join(legacy, 'parley.db'), 'newer legacy');
    expect(adoptLegacyDataDir(target, [legacy])).toBeUndefined();
    expect(readFileSync(path.join(target, 'parley.db'), 'utf8')).toBe('db');
  });

  it('lists the headless service’s old Linux folder as a legacy place', () => {
    expect(legacyDataDirs('linux', { XDG_DATA_HOME: '/share', XDG_CONFIG_HOME: '/cfg' })).toEqual([path.join('/cfg', 'Parley'), path.join('/share', 'parley')]);
  });
});

describe('unpacked paths of a packaged app', () => {
  it('points into app.asar.unpacked where the packager put the files, and leaves other paths alone', () => {
    const present = new Set(['/opt/Parley/resources/app.asar.unpacked/node_modules/pyodide/']);
    const exists = (p: string) => present.has(p);
    expect(unpackedPath('/opt/Parley/resources/app.asar/node_modules/pyodide/', exists)).toBe('/opt/Parley/resources/app.asar.unpacked/node_modules/pyodide/');
    expect(unpackedPath('C:\\Parley\\resources\\app.asar\\node_modules\\pyodide\\', (p) => p === 'C:\\Parley\\resources\\app.asar.unpacked\\node_modules\\pyodide\\')).toBe(
      'C:\\Parley\\resources\\app.asar.unpacked\\node_modules\\pyodide\\',
    );
    // Packed, not unpacked: stays inside the archive (Electron reads it from there).
    expect(unpackedPath('/opt/Parley/resources/app.asar/dist/server/index.js', exists)).toBe('/opt/Parley/resources/app.asar/dist/server/index.js');
    expect(unpackedPath('/work/parley/node_modules/pyodide/', () => true)).toBe('/work/parley/node_modules/pyodide/');
    expect(unpackedPath('/data/app.asar.unpacked/x', () => true)).toBe('/data/app.asar.unpacked/x');
  });
});
