// `npm run dist`: builds everything, then the installers for this OS with electron-builder
// (configuration: electron-builder.yml; output: release/). Extra arguments go to
// electron-builder, e.g. `npm run dist -- --linux AppImage` or `npm run dist -- --publish always`.
// Needs the Electron binary, which electron-builder downloads into its cache on first use.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const publish = args.some((a) => a === '--publish' || a.startsWith('--publish=') || a === '-p') ? [] : ['--publish', 'never'];
const builder = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-builder', 'cli.js'), ...publish, ...args], { cwd: root, stdio: 'inherit' });
process.exit(builder.status ?? 1);
