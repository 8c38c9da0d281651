import type pg from 'pg';
import type { Db } from './knex';
import { pgDriver } from './pg-driver';

/** The channel the `parley_table_changes` triggers notify, with the changed table's name as payload. */
export const TABLE_CHANGES_CHANNEL = 'parley_table_changes';

/**
 * Tables whose writes are announced (migrations 202611260601 and, as `<table>|<writer>|<id>`,
 * 202611270102, 202611270701 (jobs that end), 202611281303 (notes, memories) and 202611282001
 * (channel access)); the in-memory caches, search indexes and live channel subscriptions read these.
 */
export const ANNOUNCED_TABLES = ['users', 'api_keys', 'revoked_tokens', 'models', 'config', 'chunks', 'collection_files', 'graph_state', 'jobs', 'notes', 'memories', 'channels', 'group_members'] as const;

/** The listening connection's application_name (in pg_stat_activity). */
export const FEED_APPLICATION_NAME = 'parley-change-feed';

/** First and longest wait before connecting again after the listening connection was lost. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

export interface PostgresChangeFeed {
  /** True while LISTEN is in place: every committed change to an announced table reaches `onChange`. */
  isActive(): boolean;
  stop(): Promise<void>;
}

/**
 * PostgreSQL's counterpart of SQLite's update hook, across instances: one dedicated connection
 * (outside the pool) LISTENs on `parley_table_changes`, which statement-level triggers notify on
 * every insert, update or delete of an announced table, whichever instance made it. A lost
 * connection is retried with a growing pause; while it is down `isActive()` is false (callers read
 * the database), and both on losing it and on listening again every announced table is reported
 * changed, since notifications may have been missed in between.
 */
export function startPostgresChangeFeed(connectionString: string, onChange: (table: string) => void): PostgresChangeFeed {
  let client: pg.Client | undefined;
  let active = false;
  let stopped = false;
  let retryMs = RETRY_FIRST_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const reportAll = () => {
    for (const table of ANNOUNCED_TABLES) onChange(table);
  };

  const lost = (conn: pg.Client) => {
    if (client !== conn) return;
    client = undefined;
    if (active) {
      active = false;
      reportAll();
    }
    conn.removeAllListeners('notification');
    conn.end().catch(() => undefined);
    if (stopped) return;
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  function connect(): void {
    retryTimer = undefined;
    if (stopped) return;
    const conn = new (pgDriver().Client)({ connectionString, application_name: FEED_APPLICATION_NAME });
    client = conn;
    conn.on('error', () => lost(conn));
    conn.on('end', () => lost(conn));
    conn.on('notification', (message) => {
      if (message.channel === TABLE_CHANGES_CHANNEL && message.payload) onChange(message.payload);
    });
    conn
      .connect()
      .then(() => conn.query(`LISTEN ${TABLE_CHANGES_CHANNEL}`))
      .then(() => {
        if (client !== conn || stopped) return;
        retryMs = RETRY_FIRST_MS;
        active = true;
        // Whatever a cache read before this moment may have missed.
        reportAll();
      })
      .catch(() => lost(conn));
  }

  connect();
  return {
    isActive: () => active,
    async stop() {
      stopped = true;
      active = false;
      if (retryTimer) clearTimeout(retryTimer);
      const conn = client;
      client = undefined;
      if (conn) {
        conn.removeAllListeners('notification');
        await conn.end().catch(() => undefined);
      }
    },
  };
}

/** The connection string of a PostgreSQL knex instance (as given to openDatabase). */
export function connectionStringOf(db: Db): string {
  const connection = (db.client as { config: { connection: unknown } }).config.connection;
  if (typeof connection === 'string') return connection;
  const value = (connection as { connectionString?: unknown } | undefined)?.connectionString;
  if (typeof value !== 'string') throw new Error('the PostgreSQL database has no connection string');
  return value;
}
