// `npm start`: builds the service, shell and UI, then runs the desktop app with Electron.
// Where the Electron binary cannot be had (no network on first run, an unsupported machine),
// it says so and points to `npm run serve`, which runs the same service and UI in a browser.
// Flags: --no-build skips the build; everything else is passed on to Electron.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopToolsNodeNote } from './node-version.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const skipBuild = args.includes('--no-build');
const electronArgs = args.filter((a) => a !== '--no-build');

if (!skipBuild) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/**
 * The Electron executable, or the reason there is none. Resolving `electron` downloads the
 * binary on first use, so it runs in a child process whose output is kept for the message.
 */
function findElectron() {
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], { cwd: root, encoding: 'utf8', timeout: 10 * 60_000 });
  const binary = probe.status === 0 ? probe.stdout.trim() : '';
  if (binary && existsSync(binary)) return { binary };
  const lines = `${probe.stderr ?? ''}\n${probe.stdout ?? ''}`.split('\n').map((l) => l.trim()).filter(Boolean);
  const failure = lines.find((l) => /error|failed|ENOTFOUND|EAI_AGAIN|ECONN/i.test(l) && !l.startsWith('at '));
  const downloading = lines.some((l) => l.startsWith('Downloading Electron'));
  const reason = failure
    ? `${downloading ? 'downloading Electron failed: ' : ''}${failure}`
    : binary
      ? `${binary} does not exist`
      : 'the electron package did not give a path';
  return { reason };
}

const electron = findElectron();
if (!electron.binary) {
  process.stderr.write(
    [
      '',
      'Parley: the Electron binary is not available on this machine, so the desktop app cannot start.',
      `  (${electron.reason.slice(0, 300)})`,
      '',
      'Run the same service and UI without the desktop shell instead:',
      '',
      '  npm run serve        then open http://127.0.0.1:8080 in a browser',
      '',
      'To get the desktop app, run `npm start` again on a machine that can download Electron',
      '(or set ELECTRON_MIRROR / ELECTRON_OVERRIDE_DIST_PATH to a local copy).',
      ...(desktopToolsNodeNote() ? ['', desktopToolsNodeNote()] : []),
      '',
    ].join('\n'),
  );
  process.exit(1);
}

const child = spawn(electron.binary, ['.', ...electronArgs], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
