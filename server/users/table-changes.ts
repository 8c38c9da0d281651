import { dialectOf, type Db } from '../platform/db/knex';

/** Called with the table name after a row of it was inserted, updated or deleted. */
export type TableChangeListener = (table: string) => void;

interface ChangeSource {
  on(event: 'change', listener: (type: string, database: string, table: string, rowid: number) => void): unknown;
}

interface Watch {
  listeners: Set<TableChangeListener>;
  /** True once the hook is on the connection. */
  active: boolean;
}

const watches = new WeakMap<Db, Watch>();

/**
 * Watches every row change on the database's one connection (SQLite's update hook, through
 * node-sqlite3's `change` event), so in-memory caches stay right even when something writes a
 * table without going through its repo. One hook per connection: node-sqlite3 toggles the hook
 * on each registration, so it is registered here once and shared. `isActive()` is false until
 * the hook is on (callers then read the database instead of their cache).
 */
export function watchTableChanges(db: Db, listener: TableChangeListener): { isActive(): boolean } {
  // PostgreSQL has no per-connection update hook (and a pool of connections): callers read the
  // database instead of their cache there. LISTEN/NOTIFY is the counterpart for several instances.
  if (dialectOf(db) !== 'sqlite') return { isActive: () => false };
  let watch = watches.get(db);
  if (!watch) {
    const created: Watch = { listeners: new Set(), active: false };
    watch = created;
    watches.set(db, created);
    const client = db.client as { acquireConnection(): Promise<ChangeSource>; releaseConnection(conn: ChangeSource): Promise<unknown> };
    client
      .acquireConnection()
      .then(async (conn) => {
        conn.on('change', (_type, _database, table) => {
          for (const fn of created.listeners) fn(table);
        });
        created.active = true;
        await client.releaseConnection(conn);
      })
      .catch(() => {
        // No hook (closed database): callers keep reading the database.
      });
  }
  watch.listeners.add(listener);
  const current = watch;
  return { isActive: () => current.active };
}
