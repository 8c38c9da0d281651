import knexFactory from 'knex';

/** Runs `PRAGMA integrity_check` on a database file; resolves to `ok` or SQLite's complaint. */
export async function checkIntegrity(file: string): Promise<string> {
  const db = knexFactory({ client: 'sqlite3', connection: { filename: file }, useNullAsDefault: true });
  try {
    const rows = (await db.raw('PRAGMA integrity_check')) as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ') || 'no answer';
  } finally {
    await db.destroy();
  }
}
