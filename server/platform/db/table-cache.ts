import type { Db } from './knex';
import { watchTableChanges } from './table-changes';

/** Subscribes to changes of some tables; `isActive()` false means a change may go unseen. */
export type ChangeFeed = (onChange: () => void) => { isActive(): boolean };

/** Any row change of `tables` (watchTableChanges: SQLite's update hook, PostgreSQL's LISTEN feed). */
export function tableFeed(db: Db, ...tables: string[]): ChangeFeed {
  return (onChange) =>
    watchTableChanges(db, (table) => {
      if (tables.includes(table)) onChange();
    });
}

/**
 * The rules of an in-memory copy of database rows: it is dropped on every change (seen by the
 * feed, or announced by the owner's own writes); it is kept only while the feed is active (a
 * change could otherwise go unseen, e.g. another instance's on PostgreSQL while LISTEN is down);
 * and a read that raced a change is returned but not kept (it may hold the old rows).
 */
export interface TableCache {
  /** Drops the copy (all of it, or only what `forget` removes) and marks reads in flight as stale. */
  invalidate(forget?: () => void): void;
  /** Runs `read`; `keep` gets its result only when nothing changed meanwhile and the feed is active. */
  read<T>(read: () => Promise<T>, keep: (value: T) => void): Promise<T>;
  /** Runs a write with the copy dropped before and after it. */
  write<T>(write: () => Promise<T>, forget?: () => void): Promise<T>;
}

/** A TableCache whose whole copy `clear` drops, following `feed`. */
export function createTableCache(clear: () => void, feed: ChangeFeed): TableCache {
  // Bumped by every change: a read that started before one must not be kept.
  let version = 0;
  const invalidate = (forget: () => void = clear) => {
    version += 1;
    forget();
  };
  const changes = feed(() => invalidate());
  return {
    invalidate,
    async read(read, keep) {
      const seen = version;
      const value = await read();
      if (seen === version && changes.isActive()) keep(value);
      return value;
    },
    async write(write, forget) {
      invalidate(forget);
      try {
        return await write();
      } finally {
        invalidate(forget);
      }
    },
  };
}
