import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Builds the service once before the suite, so tests of the built output see the current sources. */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--server-only', '--quiet'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
}
