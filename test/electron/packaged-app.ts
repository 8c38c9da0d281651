// Helpers of the packaged-app smoke test (test/electron/smoke.spec.ts): where the packaged app
// is, what its fuses say, and a copy of it with a damaged app.asar. Plain Node, unit-tested in
// packaged-app.test.ts (the smoke test itself needs a real Electron binary).
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';

/** The byte of one fuse in the wire (@electron/fuses' FuseState, which its index does not export). */
const FuseState = { DISABLE: 48, ENABLE: 49, REMOVED: 114 } as const;

/** The packaged app: its executable and the resources folder holding app.asar. */
export interface PackagedApp {
  executable: string;
  resources: string;
  /** The folder to copy for a tampered twin (the .app bundle on macOS, else the unpacked folder). */
  root: string;
}

/** Where electron-builder's unpacked output puts the executable, per OS (productName Parley, linux name `parley`). */
function layouts(release: string, platform: NodeJS.Platform): PackagedApp[] {
  if (platform === 'darwin') {
    const dirs = existsSync(release) ? readdirSync(release).filter((d) => d === 'mac' || d.startsWith('mac-')) : [];
    return dirs.map((d) => {
      const root = path.join(release, d, 'Parley.app');
      return { root, executable: path.join(root, 'Contents', 'MacOS', 'Parley'), resources: path.join(root, 'Contents', 'Resources') };
    });
  }
  const dirs = existsSync(release) ? readdirSync(release).filter((d) => (platform === 'win32' ? /^win-.*unpacked$/ : /^linux-.*unpacked$/).test(d)) : [];
  return dirs.map((d) => {
    const root = path.join(release, d);
    return { root, executable: path.join(root, platform === 'win32' ? 'Parley.exe' : 'parley'), resources: path.join(root, 'resources') };
  });
}

/** The resources folder of an executable's app (macOS: inside the bundle; else beside it). */
export function appFromExecutable(executable: string, platform: NodeJS.Platform): PackagedApp {
  if (platform === 'darwin') {
    const contents = path.dirname(path.dirname(executable));
    return { executable, resources: path.join(contents, 'Resources'), root: path.dirname(contents) };
  }
  const root = path.dirname(executable);
  return { executable, resources: path.join(root, 'resources'), root };
}

/**
 * The packaged app to test: PARLEY_PACKAGED_APP (the executable, set by the workflow), else
 * electron-builder's unpacked output under release/. Without one, the reason to skip.
 */
export function findPackagedApp(env: NodeJS.ProcessEnv, release: string, platform: NodeJS.Platform = process.platform): { app: PackagedApp } | { reason: string } {
  const named = env.PARLEY_PACKAGED_APP;
  if (named) {
    if (!existsSync(named)) return { reason: `PARLEY_PACKAGED_APP=${named} does not exist` };
    return { app: appFromExecutable(named, platform) };
  }
  const found = layouts(release, platform).find((candidate) => existsSync(candidate.executable) && existsSync(path.join(candidate.resources, 'app.asar')));
  if (found) return { app: found };
  return {
    reason:
      `no packaged Parley app with a real Electron binary on this machine (set PARLEY_PACKAGED_APP, or build one with ` +
      '`npm run dist -- --dir`, which needs to download Electron); the desktop workflow runs this test on Linux, macOS and Windows',
  };
}

/** The fuses Parley sets, by name, as read back from a binary: true on, false off. */
export type FuseReport = Record<keyof typeof FuseV1Options, boolean | 'removed' | 'inherit'>;

/** Reads the fuse wire of an Electron executable (or .app bundle) with @electron/fuses. */
export async function readFuses(executable: string): Promise<Partial<FuseReport>> {
  const wire = (await getCurrentFuseWire(executable)) as unknown as Record<string, number>;
  const report: Partial<FuseReport> = {};
  for (const [name, index] of Object.entries(FuseV1Options)) {
    if (typeof index !== 'number') continue;
    const state = wire[String(index)];
    if (state === undefined) continue;
    report[name as keyof FuseReport] = state === FuseState.ENABLE ? true : state === FuseState.DISABLE ? false : state === FuseState.REMOVED ? 'removed' : 'inherit';
  }
  return report;
}

/**
 * Changes one byte of the file list in an app.asar's header (a file name inside the header
 * JSON, so the archive still parses): only the integrity check can tell. Returns the offset.
 */
export function tamperAsarHeader(asarFile: string): number {
  const bytes = readFileSync(asarFile);
  // Pickle layout: [4: size][4: header size][4: payload size][4: JSON length][JSON…]
  const jsonLength = bytes.readUInt32LE(12);
  const header = bytes.subarray(16, 16 + jsonLength).toString('latin1');
  const at = header.indexOf('"package.json"');
  if (at < 0) throw new Error(`${asarFile} lists no package.json in its header`);
  const offset = 16 + at + 1; // the "p"
  bytes[offset] = 'q'.charCodeAt(0);
  writeFileSync(asarFile, bytes);
  return offset;
}

/** A copy of the packaged app whose app.asar header is damaged by one byte. */
export function tamperedCopy(app: PackagedApp, into: string): PackagedApp {
  const copy = copyApp(app, into);
  tamperAsarHeader(path.join(copy.resources, 'app.asar'));
  return copy;
}

/** A copy of the packaged app at `into` (symlinks of macOS frameworks kept as links). */
function copyApp(app: PackagedApp, into: string): PackagedApp {
  const root = path.join(into, path.basename(app.root));
  cpSync(app.root, root, { recursive: true, verbatimSymlinks: true });
  return {
    root,
    executable: path.join(root, path.relative(app.root, app.executable)),
    resources: path.join(root, path.relative(app.root, app.resources)),
  };
}

/**
 * A copy of the packaged app that Playwright can drive: identical but for the one fuse that
 * lets `--inspect` through (Playwright's `_electron.launch` attaches to the main process with
 * it; the shipped app has it off). Every other fuse, the asar and its integrity hash stay as
 * shipped. On macOS the copy gets an ad-hoc signature again after the flip.
 */
export async function drivableCopy(app: PackagedApp, into: string, platform: NodeJS.Platform = process.platform): Promise<PackagedApp> {
  const copy = copyApp(app, into);
  await flipFuses(platform === 'darwin' ? copy.root : copy.executable, {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature: platform === 'darwin',
    [FuseV1Options.EnableNodeCliInspectArguments]: true,
  });
  return copy;
}

/** A path inside app.asar as Parley's packaged service reads it from app.asar.unpacked. */
export function isUnpackedPath(file: string): boolean {
  return /[\\/]app\.asar\.unpacked[\\/]/.test(file);
}
