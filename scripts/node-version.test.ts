import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { atLeast, DESKTOP_TOOLS_NODE, desktopToolsNodeNote } from './node-version.mjs';

const root = path.resolve(import.meta.dirname, '..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };

describe('Node versions of the toolchain', () => {
  it('compares versions', () => {
    expect(atLeast('22.12.0', '22.12.0')).toBe(true);
    expect(atLeast('24.1.0', '22.12.0')).toBe(true);
    expect(atLeast('22.11.9', '22.12.0')).toBe(false);
    expect(atLeast('20.19.2', '22.12.0')).toBe(false);
  });

  it('notes the Node the desktop tools need when this one is older, and nothing otherwise', () => {
    expect(desktopToolsNodeNote('20.19.2')).toMatch(/need Node 22\.12\.0 or newer; this is Node 20\.19\.2/);
    expect(desktopToolsNodeNote('22.12.0')).toBe('');
  });

  it('matches what the installed Electron tools declare', () => {
    for (const pkg of ['node_modules/electron', 'node_modules/@electron/get', 'node_modules/@electron/rebuild']) {
      const declared = lock.packages[pkg]?.engines?.node ?? '';
      expect(declared.replace(/\s/g, ''), pkg).toBe(`>=${DESKTOP_TOOLS_NODE}`);
    }
  });
});
