import { dialectOf, type Db } from './knex';
import { connectionStringOf, startPostgresChangeFeed } from './table-changes-postgres';

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
 * Watches every row change so in-memory caches stay right even when something writes a table
 * without going through its repo. SQLite: the one connection's update hook (node-sqlite3's
 * `change` event), registered once per connection and shared (node-sqlite3 toggles the hook on
 * each registration). PostgreSQL: LISTEN/NOTIFY on a dedicated connection
 * (table-changes-postgres.ts), which also carries changes made by other instances on the same
 * database; it stops when the database is destroyed. `isActive()` is false until the hook or
 * LISTEN is in place (and on PostgreSQL while the connection is down): callers then read the
 * database instead of their cache.
 */
export function watchTableChanges(db: Db, listener: TableChangeListener): { isActive(): boolean } {
  let watch = watches.get(db);
  if (!watch) {
    watch = dialectOf(db) === 'sqlite' ? watchSqlite(db) : watchPostgres(db);
    watches.set(db, watch);
  }
  watch.listeners.add(listener);
  const current = watch;
  return { isActive: () => current.active };
}

function watchSqlite(db: Db): Watch {
  const created: Watch = { listeners: new Set(), active: false };
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
  return created;
}

function watchPostgres(db: Db): Watch {
  const listeners = new Set<TableChangeListener>();
  const feed = startPostgresChangeFeed(connectionStringOf(db), (table) => {
    for (const fn of listeners) fn(table);
  });
  // The feed's connection lives outside knex's pool: it ends with the database.
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroy = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    await feed.stop();
    return destroy(callback);
  };
  return {
    listeners,
    get active() {
      return feed.isActive();
    },
  };
}
