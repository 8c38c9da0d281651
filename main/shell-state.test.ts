import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStateStore } from './shell-state';

describe('shell state file', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-shell-'));
    dirs.push(dir);
    return path.join(dir, 'nested', 'shell-state.json');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('remembers the window and port across runs', () => {
    const file = tempFile();
    createStateStore(file).write({ port: 41234 });
    createStateStore(file).write({ window: { bounds: { x: 1, y: 2, width: 800, height: 600 }, maximized: true } });
    expect(createStateStore(file).read()).toEqual({ port: 41234, window: { bounds: { x: 1, y: 2, width: 800, height: 600 }, maximized: true } });
    expect(JSON.parse(readFileSync(file, 'utf8')).port).toBe(41234);
  });

  it('starts fresh from a missing, damaged or tampered file instead of failing', () => {
    const file = tempFile();
    expect(createStateStore(file).read()).toEqual({});
    createStateStore(file).write({});
    for (const content of ['{not json', '[]', '{"port": "80; rm -rf /"}', '{"port": 0}', '{"window": {"bounds": {"x": 0}}}']) {
      writeFileSync(file, content);
      expect(createStateStore(file).read(), content).toEqual({});
    }
  });
});
