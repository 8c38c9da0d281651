// Node versions: the service and the tests run on Node 20.19+ (package.json `engines`); the
// desktop toolchain (Electron 45's download tools, electron-builder 26's @electron/rebuild)
// needs Node 22.12+. `npm start` and `npm run dist` add this note to their failure messages.

/** The oldest Node the desktop tools support. */
export const DESKTOP_TOOLS_NODE = '22.12.0';

/** True when `version` (e.g. `20.19.2`, as in process.versions.node) is at least `minimum`. */
export function atLeast(version, minimum) {
  const a = version.split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** A line for a failure message when this Node is too old for the desktop tools, else ''. */
export function desktopToolsNodeNote(version = process.versions.node) {
  if (atLeast(version, DESKTOP_TOOLS_NODE)) return '';
  return `Note: the desktop tools (Electron 45, electron-builder 26) need Node ${DESKTOP_TOOLS_NODE} or newer; this is Node ${version}. The service (\`npm run serve\`) and the tests run on Node 20.19+.`;
}
