import { describe, expect, it } from 'vitest';
import { createFileLists } from './file-lists';
import type { KnowledgeFileRow } from './knowledge.repo';

const row = (id: string, status = 'completed'): KnowledgeFileRow => ({ file_id: id, status, error: null, created_at: 1, filename: `${id}.txt`, size: 10, mime_type: 'text/plain' });
const entry = (id: string) => ({ id, name: `${id}.txt`, status: 'pending' as const, size: 10, mime_type: 'text/plain', created_at: 2 });

describe('knowledge file lists', () => {
  it('keeps changes made while the list is read, and reads the database once for a burst of adds', async () => {
    let reads = 0;
    let release!: () => void;
    const lists = createFileLists(async () => {
      reads += 1;
      await new Promise<void>((resolve) => (release = resolve));
      // The read saw the first add but not the later changes.
      return [row('a'), row('b'), row('c', 'pending')];
    });
    const first = lists.get('kb');
    lists.put('kb', entry('c'));
    lists.put('kb', entry('d'));
    lists.status('kb', 'c', 'failed', 'broken');
    lists.remove('kb', 'a');
    release();
    const expected = [
      { id: 'b', status: 'completed' },
      { id: 'c', status: 'failed', error: 'broken' },
      { id: 'd', status: 'pending' },
    ];
    expect(await first).toMatchObject(expected);
    lists.put('kb', entry('e'));
    expect((await lists.get('kb')).map((f) => f.id)).toEqual(['b', 'c', 'd', 'e']);
    expect(reads).toBe(1);
  });

  it('does not keep a list forgotten while it was read', async () => {
    let reads = 0;
    const lists = createFileLists(async () => {
      reads += 1;
      return [row('a')];
    });
    const first = lists.get('kb');
    lists.forget('kb');
    await first;
    await lists.get('kb');
    expect(reads).toBe(2);
  });
});
