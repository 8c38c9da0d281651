import { describe, expect, it } from 'vitest';
import { createTableCache, type ChangeFeed } from './table-cache';

/** A change feed the test drives: `change()` announces a write, `active` says whether it is on. */
function fakeFeed() {
  const state = { active: true, onChange: (): void => undefined };
  const feed: ChangeFeed = (onChange) => {
    state.onChange = onChange;
    return { isActive: () => state.active };
  };
  return { feed, state, change: () => state.onChange() };
}

/** A cached map of rows read through `kept`, with a database the test controls. */
function cachedRows(feed: ChangeFeed) {
  const cache = new Map<string, string>();
  const database = new Map<string, string>([['a', 'first']]);
  const kept = createTableCache(() => cache.clear(), feed);
  let reads = 0;
  const find = async (id: string, during?: () => void) => {
    const cached = cache.get(id);
    if (cached !== undefined) return cached;
    return kept.read(
      async () => {
        reads += 1;
        const row = database.get(id) ?? '';
        during?.();
        return row;
      },
      (row) => cache.set(id, row),
    );
  };
  return { cache, database, kept, find, reads: () => reads };
}

describe('table cache', () => {
  it('keeps what it read and drops it on a change', async () => {
    const { feed, change } = fakeFeed();
    const rows = cachedRows(feed);
    expect(await rows.find('a')).toBe('first');
    expect(await rows.find('a')).toBe('first');
    expect(rows.reads()).toBe(1);
    rows.database.set('a', 'second');
    change();
    expect(await rows.find('a')).toBe('second');
    expect(rows.reads()).toBe(2);
  });

  it('returns a read that raced a change but does not keep it', async () => {
    const { feed, change } = fakeFeed();
    const rows = cachedRows(feed);
    // The row is read, then written and announced before the read finishes.
    expect(
      await rows.find('a', () => {
        rows.database.set('a', 'second');
        change();
      }),
    ).toBe('first');
    expect(await rows.find('a')).toBe('second');
  });

  it('keeps nothing while the change feed is not active', async () => {
    const { feed, state } = fakeFeed();
    state.active = false;
    const rows = cachedRows(feed);
    await rows.find('a');
    rows.database.set('a', 'second');
    // No change announced (it could have gone unseen): the database is read again.
    expect(await rows.find('a')).toBe('second');
    expect(rows.cache.size).toBe(0);
  });

  it('drops only what a write forgets, before and after the write, and a racing read is not kept', async () => {
    const { feed } = fakeFeed();
    const rows = cachedRows(feed);
    rows.database.set('b', 'other');
    await rows.find('a');
    await rows.find('b');
    const reading = rows.find('c');
    await rows.kept.write(
      async () => {
        rows.database.set('a', 'second');
      },
      () => rows.cache.delete('a'),
    );
    await reading;
    expect([...rows.cache.keys()]).toEqual(['b']);
    expect(await rows.find('a')).toBe('second');
  });
});
