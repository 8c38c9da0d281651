import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One entry of package-lock.json's `packages` (lockfile v2/v3). */
interface LockedPackage {
  version?: string;
  optional?: boolean;
  devOptional?: boolean;
  os?: string[];
  cpu?: string[];
  link?: boolean;
}

/** What differs between a lockfile and an installed node_modules. */
export interface LockfileDifference {
  /** `node_modules/<name>` paths the lockfile wants that are not installed. */
  missing: string[];
  /** Installed at another version: `path wanted → installed`. */
  changed: string[];
}

/**
 * Compares a package-lock.json (as text) with the node_modules installed under `root`: every
 * package the lockfile lists must be there at the same version, except optional packages for
 * other platforms (they are never installed here). Extra installed packages do not matter: an
 * older checkout does not import what it does not know.
 */
export function compareLockfile(lockfileText: string, root: string): LockfileDifference {
  const lock = JSON.parse(lockfileText) as { packages?: Record<string, LockedPackage> };
  const missing: string[] = [];
  const changed: string[] = [];
  for (const [where, wanted] of Object.entries(lock.packages ?? {})) {
    if (!where || wanted.link) continue;
    const manifest = path.join(root, where, 'package.json');
    if (!existsSync(manifest)) {
      if (!wanted.optional && !wanted.devOptional) missing.push(where);
      continue;
    }
    const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
    if (wanted.version && installed !== wanted.version) changed.push(`${where} ${wanted.version} → ${installed ?? '?'}`);
  }
  return { missing, changed };
}

/** True when the lockfile's packages are all installed at their versions. */
export function isCompatible(difference: LockfileDifference): boolean {
  return difference.missing.length === 0 && difference.changed.length === 0;
}
