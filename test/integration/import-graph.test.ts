import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph } from '../helpers/import-graph';

const root = path.resolve(import.meta.dirname, '../..');

/** `server/<domain>` for a file in a domain's folder, `server/(root)` for the spine's own files. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : `${parts[0]}/(root)`;
}

describe('the import graph', () => {
  const edges = importGraph(root, ['server', 'main']);

  it('is read from the source (a check that reads nothing passes nothing)', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'server/app.ts', to: 'server/routes.ts' }));
  });

  it('has no import cycle between files of server/ and main/ (type-only imports included)', () => {
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('has no cycle between the folders of server/: every domain depends only downward', () => {
    const between = edges
      .filter((e) => e.from.startsWith('server/') && e.to.startsWith('server/'))
      .map((e) => ({ from: folderOf(e.from), to: folderOf(e.to) }))
      .filter((e) => e.from !== e.to);
    expect(cyclesOf(between)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    expect(cyclesOf([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }])).toEqual([['a', 'b', 'c']]);
  });
});
