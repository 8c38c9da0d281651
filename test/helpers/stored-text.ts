import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dialectOf, rawRows, type Db } from '../../server/platform/db/knex';

/**
 * Everything the database holds, as text, to check that a secret never reaches it: SQLite's
 * file on disk (after a checkpoint, so the WAL's pages are in it), or on PostgreSQL every row of
 * every table in its text form.
 */
export async function storedDatabaseText(db: Db, dataDir: string): Promise<string> {
  if (dialectOf(db) === 'sqlite') {
    await db.raw('PRAGMA wal_checkpoint(FULL)');
    return readFileSync(path.join(dataDir, 'parley.db')).toString('latin1');
  }
  const tables = await rawRows<{ table_name: string }>(db, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'");
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await rawRows<{ row: string }>(db, 'SELECT t::text AS row FROM ?? AS t', [table_name]);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}
