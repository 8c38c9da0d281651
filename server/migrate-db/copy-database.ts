import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { systemClock } from '../platform/clock';
import { MOVED_TO_POSTGRES } from '../platform/data-dir';
import { acquireDataDirLock, DataDirInUseError, type DataDirLock } from '../platform/data-dir-lock';
import { closeDatabase, dialectOf, openDatabase, rawRows, type Db } from '../platform/db/knex';
import { createLogger, type Logger } from '../platform/log';
import { upgradeDatabase } from '../upgrades';

/** What to move: a SQLite data dir's database into a PostgreSQL database. */
export interface CopyOptions {
  fromDataDir: string;
  toUrl: string;
  /** Empty a target that already holds rows (otherwise refused). */
  force?: boolean;
  /** Rows read and written per statement (capped by PostgreSQL's 65,535 bind parameters). */
  batchSize?: number;
  /** Progress lines (one per table). */
  report?: (line: string) => void;
  /** Where the database updates before the copy log (snapshots, what was applied); silent when unset. */
  log?: Logger;
  /** PARLEY_PG_DUMP and PARLEY_CONFIRM_BACKUP, for a target that already holds an older Parley's data. */
  pgDump?: string;
  confirmBackup?: string;
}

/** Rows per table in the source and the target after the copy. */
export interface TableCount {
  table: string;
  source: number;
  target: number;
}

/** Raised for a refusal the user can act on (bad folder, non-empty target, counts that differ). */
export class CopyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefused';
  }
}

/** knex's own bookkeeping and the record of the versions that opened a database: each side keeps its own. */
const SKIPPED = new Set(['knex_migrations', 'knex_migrations_lock', 'app_versions']);
const PG_MAX_BINDINGS = 65_000;

export interface ForeignKey {
  table: string;
  references: string;
  column: string;
  referencedColumn: string;
}

async function targetTables(db: Db): Promise<string[]> {
  const rows = await rawRows<{ table_name: string }>(db, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name");
  return rows.map((r) => r.table_name).filter((t) => !SKIPPED.has(t));
}

async function foreignKeys(db: Db): Promise<ForeignKey[]> {
  return rawRows<ForeignKey>(
    db,
    `SELECT cl.relname AS "table", rcl.relname AS "references", a.attname AS "column", ra.attname AS "referencedColumn"
     FROM pg_constraint c
     JOIN pg_class cl ON cl.oid = c.conrelid
     JOIN pg_class rcl ON rcl.oid = c.confrelid
     JOIN pg_namespace n ON n.oid = cl.relnamespace AND n.nspname = current_schema()
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
     WHERE c.contype = 'f'`,
  );
}

/** Tables ordered so every table comes after the tables it references (its own self-references aside). */
export function dependencyOrder(tables: readonly string[], keys: readonly ForeignKey[]): string[] {
  const pending = new Set(tables);
  const ordered: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter((t) => keys.every((k) => k.table !== t || k.references === t || !pending.has(k.references)));
    // A cycle between tables (none today): take the rest in name order rather than stop.
    const next = ready.length > 0 ? ready : [...pending];
    for (const t of next.sort()) {
      ordered.push(t);
      pending.delete(t);
    }
  }
  return ordered;
}

async function columnsOf(db: Db | Knex.Transaction, table: string): Promise<Array<{ name: string; serial: boolean }>> {
  const rows = await rawRows<{ column_name: string; column_default: string | null }>(
    db,
    'SELECT column_name, column_default FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
    [table],
  );
  return rows.map((r) => ({ name: r.column_name, serial: (r.column_default ?? '').startsWith('nextval(') }));
}

async function sqliteColumns(db: Db, table: string): Promise<Set<string>> {
  const rows = await rawRows<{ name: string }>(db, 'SELECT name FROM pragma_table_info(?)', [table]);
  return new Set(rows.map((r) => r.name));
}

async function count(db: Db, table: string): Promise<number> {
  const row = await db(table).count<{ n: number | string }[]>({ n: '*' });
  return Number(row[0]?.n ?? 0);
}

/** Orders a self-referencing table's rows so a referenced row is written before the rows pointing at it. */
function parentsFirst(rows: Array<Record<string, unknown>>, column: string, referenced: string): Array<Record<string, unknown>> {
  const byKey = new Map(rows.map((r) => [r[referenced], r]));
  const done = new Set<unknown>();
  const out: Array<Record<string, unknown>> = [];
  const visit = (row: Record<string, unknown>, depth: number) => {
    const key = row[referenced];
    if (done.has(key)) return;
    const parent = byKey.get(row[column]);
    if (parent && parent !== row && depth < rows.length) visit(parent, depth + 1);
    done.add(key);
    out.push(row);
  };
  for (const row of rows) visit(row, 0);
  return out;
}

/** What a finished move did. */
export interface CopyResult {
  counts: TableCount[];
  /** Where the data dir's SQLite database was moved aside, so nothing serves or backs it up by mistake. */
  movedTo: string;
}

/**
 * Moves the data dir's SQLite database (and any WAL files beside it) aside under a name that says
 * where it went: started without PARLEY_DATABASE_URL, the service then refuses this data dir
 * instead of serving the old copy, and `npm run backup` no longer copies it.
 */
function moveAside(dataDir: string): string {
  const file = path.join(dataDir, 'parley.db');
  let moved = path.join(dataDir, MOVED_TO_POSTGRES);
  if (existsSync(moved)) moved = `${moved}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, moved);
  for (const suffix of ['-wal', '-shm']) if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${moved}${suffix}`);
  return moved;
}

/** Takes the data dir's lock for the copy: a running service on it is refused, and none can start until the copy ends. */
function lockForCopy(dataDir: string): DataDirLock {
  try {
    return acquireDataDirLock(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const { pid, url } = error.holder;
    throw new CopyRefused(`${dataDir} is in use by a running Parley (pid ${pid}${url ? `, ${url}` : ''}): stop the service or quit the desktop app first, then run migrate-db again`);
  }
}

/**
 * Moves a data dir's SQLite database into PostgreSQL: refuses while a service runs on that data
 * dir (and holds the data dir's lock, so none starts during the copy), copies every table, then
 * moves the SQLite file aside.
 */
export async function copyDatabase(options: CopyOptions): Promise<CopyResult> {
  if (!existsSync(path.join(options.fromDataDir, 'parley.db'))) {
    throw new CopyRefused(`${options.fromDataDir} holds no Parley database (parley.db): check --from (the desktop app's data dir is the data folder inside its user-data folder, such as ~/.config/Parley/data)`);
  }
  const lock = lockForCopy(options.fromDataDir);
  try {
    const counts = await copyTables(options);
    return { counts, movedTo: moveAside(options.fromDataDir) };
  } finally {
    lock.release();
  }
}

/**
 * Copies every table of a SQLite data dir's database into PostgreSQL, in dependency order and in
 * batches, inside one transaction (a failure leaves the target as it was). Both sides are first
 * brought to the current migrations, so their tables match. Serial sequences are moved past the
 * copied ids, and the row counts of every table are compared at the end.
 */
async function copyTables(options: CopyOptions): Promise<TableCount[]> {
  const report = options.report ?? (() => undefined);
  const source = openDatabase(options.fromDataDir);
  const target = openDatabase({ dataDir: options.fromDataDir, databaseUrl: options.toUrl, poolSize: 2 });
  try {
    if (dialectOf(target) !== 'postgres') throw new CopyRefused('--to must be a postgres:// URL');
    // Both sides as any start would update them: a newer database is refused, one that holds data is snapshotted first.
    const log = options.log ?? createLogger({ level: 'silent', stdout: false }).log;
    const update = { dataDir: options.fromDataDir, clock: systemClock, log, pgDump: options.pgDump, confirmBackup: options.confirmBackup };
    for (const [db, databaseUrl] of [[source, undefined], [target, options.toUrl]] as const) {
      const { snapshot } = await upgradeDatabase({ db, databaseUrl, ...update });
      if (snapshot) report(`Snapshot before updating the ${databaseUrl ? 'target' : 'source'} database: ${snapshot}`);
    }
    const keys = await foreignKeys(target);
    const tables = dependencyOrder(await targetTables(target), keys);

    const filled: string[] = [];
    for (const table of tables) if ((await count(target, table)) > 0) filled.push(table);
    if (filled.length > 0 && !options.force) {
      throw new CopyRefused(`The target database already holds data (${filled.join(', ')}): give an empty database, or --force to replace its contents`);
    }

    await target.transaction(async (trx) => {
      if (filled.length > 0) await trx.raw(`TRUNCATE ${tables.map(() => '??').join(', ')} RESTART IDENTITY CASCADE`, tables);
      for (const table of tables) {
        const columns = await columnsOf(trx, table);
        const present = await sqliteColumns(source, table);
        // `rowid` is implicit in SQLite (not in its column list) and explicit on PostgreSQL.
        const copied = columns.map((c) => c.name).filter((c) => present.has(c) || c === 'rowid');
        const batch = Math.max(1, Math.min(options.batchSize ?? 500, Math.floor(PG_MAX_BINDINGS / Math.max(1, copied.length))));
        const selfKey = keys.find((k) => k.table === table && k.references === table);
        let moved = 0;
        if (selfKey) {
          const rows = await source(table).select(copied).orderBy('rowid');
          const ordered = parentsFirst(rows as Array<Record<string, unknown>>, selfKey.column, selfKey.referencedColumn);
          for (let i = 0; i < ordered.length; i += batch) await trx(table).insert(ordered.slice(i, i + batch));
          moved = ordered.length;
        } else {
          for (let after = -Infinity; ; ) {
            const rows = (await source(table)
              .select(copied.includes('rowid') ? copied : ['rowid as __rowid', ...copied])
              .where('rowid', '>', after === -Infinity ? Number.MIN_SAFE_INTEGER : after)
              .orderBy('rowid')
              .limit(batch)) as Array<Record<string, unknown>>;
            if (rows.length === 0) break;
            const last = rows[rows.length - 1]!;
            after = Number(last.rowid ?? last.__rowid);
            await trx(table).insert(rows.map(({ __rowid: _skip, ...row }) => row));
            moved += rows.length;
          }
        }
        for (const c of columns.filter((col) => col.serial)) {
          // Sequences continue after the highest copied id (or start at 1 for an empty table).
          await trx.raw(`SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX(??) FROM ??), 0) + 1, false)`, [table, c.name, c.name, table]);
        }
        report(`  ${table}: ${moved} rows`);
      }
    });

    const counts: TableCount[] = [];
    for (const table of tables) counts.push({ table, source: await count(source, table), target: await count(target, table) });
    const differ = counts.filter((c) => c.source !== c.target);
    if (differ.length > 0) throw new CopyRefused(`Row counts differ after the copy: ${differ.map((c) => `${c.table} ${c.source} → ${c.target}`).join(', ')}`);
    return counts;
  } finally {
    await closeDatabase(source);
    await target.destroy();
  }
}
