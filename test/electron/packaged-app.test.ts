import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import asar from '@electron/asar';
import { flipFuses, FuseVersion } from '@electron/fuses';
import { afterEach, describe, expect, it } from 'vitest';
import { appFromExecutable, drivableCopy, findPackagedApp, isUnpackedPath, readFuses, tamperAsarHeader, tamperedCopy } from './packaged-app';
import { flipOptions, SHIPPED_FUSES } from './shipped-fuses';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const dirs: string[] = [];
function tmp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-packaged-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in executable holding a fuse wire like Electron's: 8 fuses, all at their defaults. */
function fakeElectron(dir: string): string {
  const file = path.join(dir, 'parley');
  const wire = Buffer.from([1, 8, 49, 48, 49, 49, 48, 48, 48, 48]);
  writeFileSync(file, Buffer.concat([Buffer.from('\x7fELF padding '), Buffer.from(SENTINEL), wire, Buffer.from(' more bytes')]));
  chmodSync(file, 0o755);
  return file;
}

async function fakeAsar(resources: string): Promise<string> {
  const src = path.join(resources, '..', 'app-src');
  mkdirSync(path.join(src, 'dist'), { recursive: true });
  writeFileSync(path.join(src, 'package.json'), '{"name":"parley"}');
  writeFileSync(path.join(src, 'dist', 'index.js'), 'console.log(1)');
  mkdirSync(resources, { recursive: true });
  const file = path.join(resources, 'app.asar');
  await asar.createPackage(src, file);
  return file;
}

const headerHash = (file: string) => createHash('sha256').update(asar.getRawHeader(file).headerString).digest('hex');

describe('finding the packaged app', () => {
  it('takes the executable the workflow names, and says why when it is missing', () => {
    const dir = tmp();
    const exe = fakeElectron(dir);
    expect(findPackagedApp({ PARLEY_PACKAGED_APP: exe }, path.join(dir, 'release'), 'linux')).toEqual({ app: { executable: exe, resources: path.join(dir, 'resources'), root: dir } });
    expect(findPackagedApp({ PARLEY_PACKAGED_APP: path.join(dir, 'nope') }, dir, 'linux')).toEqual({ reason: expect.stringContaining('does not exist') });
  });

  it("finds electron-builder's unpacked output per OS", async () => {
    const release = tmp();
    mkdirSync(path.join(release, 'linux-unpacked'));
    fakeElectron(path.join(release, 'linux-unpacked'));
    await fakeAsar(path.join(release, 'linux-unpacked', 'resources'));
    const found = findPackagedApp({}, release, 'linux');
    expect(found).toEqual({ app: expect.objectContaining({ executable: path.join(release, 'linux-unpacked', 'parley') }) });
    expect(appFromExecutable('/Applications/Parley.app/Contents/MacOS/Parley', 'darwin')).toEqual({
      executable: '/Applications/Parley.app/Contents/MacOS/Parley',
      resources: '/Applications/Parley.app/Contents/Resources',
      root: '/Applications/Parley.app',
    });
  });

  it('gives a reason to skip where no Electron binary was packaged', () => {
    const found = findPackagedApp({}, path.join(tmp(), 'release'), 'linux');
    expect('reason' in found && found.reason).toMatch(/no packaged Parley app.*PARLEY_PACKAGED_APP/);
  });
});

describe('reading the fuses back', () => {
  it('names each fuse of the wire, as flipped by the packager', async () => {
    const exe = fakeElectron(tmp());
    expect(await readFuses(exe)).toMatchObject({ RunAsNode: true, EnableCookieEncryption: false, OnlyLoadAppFromAsar: false });
    await flipFuses(exe, { version: FuseVersion.V1, ...flipOptions() });
    expect(await readFuses(exe)).toEqual({ ...SHIPPED_FUSES, LoadBrowserProcessSpecificV8Snapshot: false });
  });

  it('makes a copy Playwright can drive, differing from the shipped app in the inspect fuse only', async () => {
    const root = path.join(tmp(), 'linux-unpacked');
    mkdirSync(root);
    const exe = fakeElectron(root);
    await fakeAsar(path.join(root, 'resources'));
    await flipFuses(exe, { version: FuseVersion.V1, ...flipOptions() });
    const shipped = await readFuses(exe);
    const copy = await drivableCopy(appFromExecutable(exe, 'linux'), tmp(), 'linux');
    expect(await readFuses(exe)).toEqual(shipped);
    expect(await readFuses(copy.executable)).toEqual({ ...shipped, EnableNodeCliInspectArguments: true });
    expect(readFileSync(path.join(copy.resources, 'app.asar'))).toEqual(readFileSync(path.join(root, 'resources', 'app.asar')));
  });

  it('fails on a file that is not Electron', async () => {
    const file = path.join(tmp(), 'not-electron');
    writeFileSync(file, 'hello');
    await expect(readFuses(file)).rejects.toThrow(/sentinel/);
  });
});

describe('a tampered app.asar', () => {
  it('still parses but its header hash (what Electron checks) changes', async () => {
    const file = await fakeAsar(path.join(tmp(), 'resources'));
    const before = headerHash(file);
    const size = readFileSync(file).length;
    tamperAsarHeader(file);
    expect(readFileSync(file).length).toBe(size);
    expect(headerHash(file)).not.toBe(before);
    expect(asar.listPackage(file, { isPack: false })).toContain(`${path.sep}qackage.json`);
  });

  it('is made on a copy, leaving the packaged app as it was', async () => {
    const root = path.join(tmp(), 'linux-unpacked');
    mkdirSync(root);
    const exe = fakeElectron(root);
    const original = await fakeAsar(path.join(root, 'resources'));
    const before = headerHash(original);
    const copy = tamperedCopy(appFromExecutable(exe, 'linux'), tmp());
    expect(headerHash(original)).toBe(before);
    expect(headerHash(path.join(copy.resources, 'app.asar'))).not.toBe(before);
    expect(readFileSync(copy.executable)).toEqual(readFileSync(exe));
  });

  it('tells unpacked paths from paths inside the archive', () => {
    expect(isUnpackedPath('/opt/Parley/resources/app.asar.unpacked/node_modules/pyodide/')).toBe(true);
    expect(isUnpackedPath('C:\\Parley\\resources\\app.asar\\node_modules\\pyodide\\')).toBe(false);
  });
});
