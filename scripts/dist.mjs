// `npm run dist`: builds everything, then the installers for this OS with electron-builder
// (configuration: electron-builder.yml; output: release/). Extra arguments go to
// electron-builder, e.g. `npm run dist -- --linux AppImage` or `npm run dist -- --publish always`.
// Needs the Electron binary, which electron-builder downloads into its cache on first use.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopToolsNodeNote } from './node-version.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const publish = args.some((a) => a === '--publish' || a.startsWith('--publish=') || a === '-p') ? [] : ['--publish', 'never'];
// electron-builder's output is kept (and shown) so a download failure can be said in one line.
const builder = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-builder', 'cli.js'), ...publish, ...args], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['inherit', 'pipe', 'pipe'],
  maxBuffer: 256 * 1024 * 1024,
});
const output = `${builder.stdout ?? ''}\n${builder.stderr ?? ''}`;
if (builder.status === 0) {
  process.stdout.write(builder.stdout ?? '');
  process.exit(0);
}
const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|unable to download|cannot download|download.*failed/i.test(output);
if (offline) {
  const line = (output.split('\n').map((l) => l.trim()).find((l) => /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|download/i.test(l) && !l.startsWith('at ')) ?? '').replace(/\s*(failedTask|stackTrace)=.*$/, '');
  process.stderr.write(
    [
      '',
      'Parley: the installers could not be built because electron-builder needs to download files',
      '(the Electron binary and packaging tools for this OS) and this machine could not reach them.',
      `  (${line.replace(/\s+/g, ' ').slice(0, 300)})`,
      '',
      'Run `npm run dist` again on a machine with network access (they are cached after the first run),',
      'or set ELECTRON_MIRROR / ELECTRON_BUILDER_BINARIES_MIRROR to a local mirror.',
      'Without installers, `npm run serve` runs the same service and UI in a browser.',
      ...(desktopToolsNodeNote() ? ['', desktopToolsNodeNote()] : []),
      '',
    ].join('\n'),
  );
  process.exit(1);
}
process.stdout.write(builder.stdout ?? '');
process.stderr.write(builder.stderr ?? '');
if (desktopToolsNodeNote()) process.stderr.write(`\n${desktopToolsNodeNote()}\n`);
process.exit(builder.status ?? 1);
