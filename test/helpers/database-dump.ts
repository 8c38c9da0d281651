import { createHash } from 'node:crypto';
import { dialectOf, openDatabase, rawRows, type Db } from '../../server/platform/db/knex';

/** A digest of rows in any order (each row's JSON, sorted), with their count. */
function digestRows(rows: unknown[]): string {
  const lines = rows.map((row) => JSON.stringify(row, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('base64') : value))).sort();
  return `${createHash('sha256').update(lines.join('\n')).digest('hex')} (${rows.length})`;
}

/** Every table's schema and rows of a database, as text a test compares before and after. */
export async function dumpDatabase(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (dialectOf(db) === 'sqlite') {
    const objects = await rawRows<{ type: string; name: string; sql: string | null }>(db, "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name");
    out['schema'] = objects.map((o) => `${o.type} ${o.name}: ${o.sql ?? ''}`).join('\n');
    for (const table of objects.filter((o) => o.type === 'table')) {
      out[`rows ${table.name}`] = digestRows(await rawRows(db, `SELECT * FROM "${table.name}"`));
    }
    return out;
  }
  const columns = await rawRows<{ table_name: string; column_name: string; data_type: string }>(
    db,
    "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
  );
  out['schema'] = columns.map((c) => `${c.table_name}.${c.column_name} ${c.data_type}`).join('\n');
  const triggers = await rawRows<{ tgname: string }>(db, "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname");
  out['triggers'] = triggers.map((t) => t.tgname).join(',');
  for (const table of [...new Set(columns.map((c) => c.table_name))]) {
    out[`rows ${table}`] = digestRows(await rawRows(db, `SELECT * FROM "${table}"`));
  }
  return out;
}

/** Opens a data dir's SQLite database (or a PostgreSQL URL), dumps it, closes it. */
export async function dumpDatabaseAt(dataDir: string, databaseUrl?: string): Promise<Record<string, string>> {
  const db = openDatabase({ dataDir, databaseUrl, poolSize: 1 });
  try {
    return await dumpDatabase(db);
  } finally {
    await db.destroy();
  }
}
