import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import asar from '@electron/asar';
import { atLeast } from '../../scripts/node-version.mjs';
import Ajv from 'ajv';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../server/platform/db/migrations';
import { builderFuses } from '../electron/shipped-fuses';

const root = path.resolve(__dirname, '..', '..');
const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const schema = JSON.parse(readFileSync(path.join(root, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8'));

function validator() {
  return new Ajv({ allErrors: true, strict: false }).compile(schema);
}

/** Width and height of a PNG file. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('installer configuration (electron-builder.yml)', () => {
  it('passes electron-builder’s own configuration schema', () => {
    const validate = validator();
    const ok = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('is checked for real: the schema refuses a broken configuration', () => {
    const validate = validator();
    expect(validate({ ...config, asar: 'yes please', notAnOption: 1 })).toBe(false);
    expect(validate.errors?.length).toBeGreaterThan(0);
  });

  it('builds Parley installers for Windows, macOS and Linux with versioned names', () => {
    expect(config.appId).toMatch(/^[a-z0-9]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Parley');
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg', 'zip']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.artifactName).toContain('${version}');
    expect(config.nsis.artifactName).toContain('${version}');
    expect(config.dmg.artifactName).toContain('${version}');
  });

  it('signs macOS builds with the hardened runtime and an entitlements file that exists', () => {
    expect(config.mac.hardenedRuntime).toBe(true);
    const plist = readFileSync(path.join(root, config.mac.entitlements), 'utf8');
    expect(plist).toContain('com.apple.security.cs.allow-jit');
    expect(plist).not.toContain('get-task-allow');
    expect(plist).not.toContain('disable-library-validation');
    expect(plist).not.toContain('allow-unsigned-executable-memory');
  });

  it('flips the Electron fuses: no running as Node, no NODE_OPTIONS or --inspect, only the checked app.asar', () => {
    expect(config.electronFuses).toEqual(builderFuses());
  });

  it('ships icons for every OS: a 1024 px PNG, an ICO, an ICNS and Linux sizes', () => {
    expect(pngSize(path.join(root, 'assets', 'icon.png'))).toEqual({ width: 1024, height: 1024 });
    const ico = readFileSync(path.join(root, config.win.icon));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(5);
    const icns = readFileSync(path.join(root, config.mac.icon));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    for (const name of readdirSync(path.join(root, config.linux.icon))) {
      const size = Number(name.split('x')[0]);
      expect(pngSize(path.join(root, config.linux.icon, name))).toEqual({ width: size, height: size });
    }
    for (const tray of ['tray.png', 'tray@2x.png', 'trayTemplate.png', 'trayTemplate@2x.png']) expect(existsSync(path.join(root, 'assets', tray)), tray).toBe(true);
  });

  it('ships only the target system’s llama.cpp build and its GPU backend (no CUDA, no sources)', () => {
    // electron-builder's own matcher for node_modules files, fed this configuration.
    const { getNodeModuleFileMatcher } = createRequire(import.meta.url)('app-builder-lib/out/fileMatcher') as {
      getNodeModuleFileMatcher: (appDir: string, destination: string, expand: (p: string) => string, platformOptions: unknown, packager: unknown) => { createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean };
    };
    const appDir = path.join(root, 'app');
    const file = { isDirectory: () => false };
    const optional = Object.keys(JSON.parse(readFileSync(path.join(root, 'node_modules', 'node-llama-cpp', 'package.json'), 'utf8')).optionalDependencies as Record<string, string>);
    expect(optional.length).toBeGreaterThan(10);
    const shipped = (os: 'mac' | 'win' | 'linux', arch: string) => {
      const expand = (pattern: string) => pattern.replace(/\$\{arch\}/g, arch).replace(/\$\{os\}/g, os);
      const filter = getNodeModuleFileMatcher(appDir, '/out', expand, config[os], { config, debugLogger: { isEnabled: false } }).createFilter();
      const ships = (relative: string) => filter(path.join(appDir, relative), file);
      expect(ships('node_modules/node-llama-cpp/dist/index.js')).toBe(true);
      expect(ships('node_modules/node-llama-cpp/llama/gitRelease.bundle')).toBe(false);
      return optional.filter((name) => ships(`node_modules/${name}/bins/build/libllama.so`) && ships(`node_modules/${name}/package.json`)).map((name) => name.replace('@node-llama-cpp/', ''));
    };
    expect(shipped('linux', 'x64')).toEqual(['linux-x64', 'linux-x64-vulkan']);
    expect(shipped('linux', 'arm64')).toEqual(['linux-arm64']);
    expect(shipped('linux', 'armv7l')).toEqual(['linux-armv7l']);
    expect(shipped('win', 'x64')).toEqual(['win-x64', 'win-x64-vulkan']);
    expect(shipped('win', 'arm64')).toEqual(['win-arm64']);
    expect(shipped('mac', 'arm64')).toEqual(['mac-arm64-metal']);
    expect(shipped('mac', 'x64')).toEqual(['mac-x64']);
    // With per-OS `files`, electron-builder packed the whole project (sources too): the rules stay common.
    for (const os of ['mac', 'win', 'linux']) expect(config[os].files, os).toBeUndefined();
    // Its shared libraries load by path: outside app.asar.
    expect(config.asarUnpack).toContain('node_modules/@node-llama-cpp/**');
  });

  it('locks every platform build of the native modules, so `npm ci` installs on Windows, macOS and Linux', () => {
    // A platform package the registry lacks at the wanted version drops out of the lock file, and
    // `npm ci` then refuses the whole install ("package.json and package-lock.json are not in sync").
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { optionalDependencies?: Record<string, string>; version?: string }> };
    const missing: string[] = [];
    for (const native of ['node-llama-cpp', '@fugood/whisper.node']) {
      const entry = lock.packages[`node_modules/${native}`];
      if (!entry) throw new Error(`${native} is not in package-lock.json`);
      const builds = Object.entries(entry.optionalDependencies ?? {});
      expect(builds.length, native).toBeGreaterThan(3);
      for (const [name, range] of builds) {
        const locked = lock.packages[`node_modules/${name}`];
        if (!locked) missing.push(`${native} → ${name}@${range}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('configures an update feed for electron-updater', () => {
    expect(config.publish).toMatchObject({ provider: 'github' });
    expect(config.publish.owner).toBeTruthy();
    expect(config.publish.repo).toBeTruthy();
  });

  it('installs Windows updates only when signed by the same publisher, and never notarises by a hard-coded identity', () => {
    expect(config.win.verifyUpdateCodeSignature).toBe(true);
    // Notarisation and signing come from the environment (repository secrets), not this file.
    expect(JSON.stringify(config.mac)).not.toMatch(/appleId|teamId|password/i);
    expect(config.mac.notarize).not.toBe(false);
  });
});

/** Runs electron-builder; a failure carries the end of its output. */
async function runBuilder(args: string[]): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [path.join(root, 'node_modules', 'electron-builder', 'cli.js'), ...args], {
      cwd: root,
      env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 280_000,
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string; code?: unknown; signal?: unknown };
    throw new Error(`electron-builder failed (code ${String(e.code)}, signal ${String(e.signal)}): ${e.message}\n${(e.stderr ?? '').slice(-3000)}\n${(e.stdout ?? '').slice(-2000)}`);
  }
}

const BUILT = ['dist/server/index.js', 'dist/main/index.js', 'dist/main/preload.cjs'];

/** When each built file was last written (undefined while missing). */
function buildStamp(): string {
  return BUILT.map((f) => (existsSync(path.join(root, f)) ? statSync(path.join(root, f)).mtimeMs : 'missing')).join(',');
}

/**
 * Packages the app. Every vitest run rebuilds dist/ in its global setup (deleting dist/main and
 * dist/server first), so where another run starts meanwhile (several people, one checkout) the
 * files can change under electron-builder: then wait for the build to be complete and try again.
 * A failure while dist/ stayed the same is reported at once.
 */
async function packageWithRetry(args: string[], work: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const deadline = Date.now() + 60_000;
    while (buildStamp().includes('missing')) {
      if (Date.now() > deadline) throw new Error(`the service is not built (${BUILT.join(', ')}): run npm run build`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const before = buildStamp();
    try {
      await runBuilder(args);
      if (buildStamp() === before) return;
    } catch (error) {
      if (buildStamp() === before || attempt >= 3) throw error;
    }
    if (attempt >= 3) throw new Error('dist/ kept being rebuilt while packaging');
    rmSync(path.join(work, 'out'), { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

describe('the packaged app (electron-builder --dir with a stub Electron)', () => {
  let work: string;
  let resources: string;
  let files: Set<string>;
  let uiBuilt: boolean;

  beforeAll(async () => {
    // dist/ is built by the suite's global setup (test/helpers/global-setup.ts).
    uiBuilt = existsSync(path.join(root, 'dist', 'renderer', 'index.html'));
    work = mkdtempSync(path.join(os.tmpdir(), 'parley-pack-'));
    const stub = path.join(work, 'electron-stub');
    mkdirSync(stub);
    writeFileSync(path.join(stub, 'electron'), '#!/bin/sh\necho "stub Electron for packaging tests"\n');
    chmodSync(path.join(stub, 'electron'), 0o755);
    const electronVersion = JSON.parse(readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version as string;
    // The same configuration without fuses: a stub executable has none to flip.
    const { electronFuses: _fuses, ...withoutFuses } = config;
    const configFile = path.join(work, 'electron-builder.json');
    writeFileSync(configFile, JSON.stringify(withoutFuses));
    await packageWithRetry(
      [
        '--config',
        configFile,
        '--dir',
        '--linux',
        '--publish',
        'never',
        `-c.electronVersion=${electronVersion}`,
        `-c.electronDist=${stub}`,
        `-c.directories.output=${path.join(work, 'out')}`,
      ],
      work,
    );
    resources = path.join(work, 'out', 'linux-unpacked', 'resources');
    files = new Set(asar.listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((f) => f.split(path.sep).join('/')));
  }, 600_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('starts from the built shell entry point, with its sandboxed preload', () => {
    const pkg = JSON.parse(asar.extractFile(path.join(resources, 'app.asar'), 'package.json').toString('utf8'));
    expect(pkg.main).toBe('dist/main/index.js');
    expect(files.has('/dist/main/index.js')).toBe(true);
    expect(files.has('/dist/main/preload.cjs')).toBe(true);
    expect(existsSync(path.join(work, 'out', 'linux-unpacked', 'parley'))).toBe(true);
  });

  it('holds the built service with every database migration bundled in', () => {
    expect(files.has('/dist/server/index.js')).toBe(true);
    expect(files.has('/dist/server/cli.js')).toBe(true);
    const code = [...files]
      .filter((f) => /^\/dist\/(server|chunks)\/.*\.js$/.test(f))
      .map((f) => asar.extractFile(path.join(resources, 'app.asar'), f.slice(1)).toString('utf8'))
      .join('\n');
    expect(MIGRATIONS.length).toBeGreaterThan(0);
    for (const [name] of MIGRATIONS) expect(code, name).toContain(name);
  });

  it('holds the UI when it has been built', () => {
    expect(files.has('/dist/renderer/index.html')).toBe(uiBuilt);
  });

  it('holds no sources, tests, source maps or development tools', () => {
    const leaked = [...files].filter(
      (f) =>
        /^\/(server|main|renderer|test|bench|scripts|\.ci)\//.test(f) ||
        (/\.map$/.test(f) && f.startsWith('/dist/')) ||
        /^\/dist\/.*\.test\./.test(f) ||
        /^\/node_modules\/(vitest|typescript|electron|electron-builder|esbuild|eslint|@playwright|tsx|vite)\//.test(f),
    );
    expect(leaked).toEqual([]);
    expect(files.has('/electron-builder.yml')).toBe(false);
  });

  it('bundles the production modules the service loads at run time', () => {
    for (const dep of ['express', 'knex', 'sqlite3', 'keytar', 'socket.io', 'electron-updater', 'qrcode', 'zod', 'pino']) {
      expect(files.has(`/node_modules/${dep}/package.json`), dep).toBe(true);
    }
  });

  it('unpacks the native modules (sqlite3, keytar) and the Pyodide files beside app.asar', () => {
    const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules');
    const natives = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? natives(path.join(dir, e.name)) : e.name.endsWith('.node') ? [path.join(dir, e.name)] : []));
    expect(natives(path.join(unpacked, 'sqlite3')).length).toBeGreaterThan(0);
    expect(natives(path.join(unpacked, 'keytar')).length).toBeGreaterThan(0);
    expect(readdirSync(path.join(unpacked, 'pyodide')).some((f) => f.endsWith('.wasm'))).toBe(true);
    expect(existsSync(path.join(unpacked, 'pyodide', 'pyodide.mjs'))).toBe(true);
  });

  it('carries llama.cpp for this system only, unpacked beside app.asar', () => {
    const arch = process.arch === 'arm' ? 'armv7l' : process.arch;
    const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules', '@node-llama-cpp');
    const shipped = readdirSync(unpacked);
    expect(shipped.length).toBeGreaterThan(0);
    for (const name of shipped) expect(name, name).toMatch(new RegExp(`^linux-${arch}(-vulkan)?$`));
    expect(existsSync(path.join(unpacked, `linux-${arch}`, 'bins', `linux-${arch}`, 'llama-addon.node'))).toBe(true);
    const listed = new Set([...files].filter((f) => f.startsWith('/node_modules/@node-llama-cpp/')).map((f) => f.split('/')[3]));
    expect([...listed].sort()).toEqual([...shipped].sort());
    expect(files.has('/node_modules/node-llama-cpp/package.json')).toBe(true);
    expect(files.has('/node_modules/node-llama-cpp/llama/gitRelease.bundle')).toBe(false);
  });

  it('writes the update feed the packaged app reads', () => {
    const feed = yaml.load(readFileSync(path.join(resources, 'app-update.yml'), 'utf8')) as Record<string, string>;
    expect(feed).toMatchObject({ provider: 'github', owner: config.publish.owner, repo: config.publish.repo });
  });
});

describe('npm start', () => {
  it('without an Electron binary, exits with a message pointing to npm run serve', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'parley-no-electron-'));
    try {
      const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'start-desktop.mjs'), '--no-build'], {
        cwd: root,
        encoding: 'utf8',
        // Points the electron package at a folder without the binary, so no download is tried.
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Electron binary is not available');
      expect(run.stderr).toContain('npm run serve');
      // On a Node older than the desktop tools need, the message says so too.
      expect(run.stderr.includes('need Node 22.12.0 or newer')).toBe(!atLeast(process.versions.node, '22.12.0'));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
