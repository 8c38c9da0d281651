import path from 'node:path';
import { parseArgs } from 'node:util';
import { isPostgresUrl } from '../platform/db/knex';
import { copyDatabase, CopyRefused } from './copy-database';

const HELP = `Usage:
  npm run migrate-db -- --from <sqlite data dir> --to <postgres://user:pass@host:5432/db> [--force] [--batch N]

Copies every table of the data dir's parley.db into the PostgreSQL database (created beforehand,
empty unless --force), then compares the row counts of every table and moves parley.db aside.
Stop the service (or quit the desktop app) first: a running one is refused. The desktop app's
data dir is the data folder of its user-data folder (~/.config/Parley/data on Linux).
`;

/** What the move leaves behind, said after every successful copy. */
export function afterCopyNotes(dataDir: string, url: string, movedTo: string): string {
  const safeUrl = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  return `
The SQLite database was moved aside to ${movedTo}: started without PARLEY_DATABASE_URL,
Parley now refuses this data dir instead of serving that old copy (rename it back to parley.db
to return to SQLite).
Uploaded files and search indexes were not copied: they stay in ${path.join(dataDir, 'uploads')} and
${path.join(dataDir, 'indexes')}. Secrets were not copied either: they stay in this data dir's secret
store (the OS keychain entries of this installation, or ${path.join(dataDir, 'secrets.enc')}).
Start the service on PostgreSQL with this same data folder and everything is found:
  PARLEY_DATA_DIR=${dataDir} PARLEY_DATABASE_URL=${safeUrl} npm run serve
(or start the desktop app with PARLEY_DATABASE_URL set in its environment).
With another data folder or secret store, copy uploads/ into it, and re-enter what lived in the store:
provider API keys (Connections), embedding and reranker keys (Documents), tool and tool-server keys,
MCP sign-ins, and the LAN certificate key; people sign in again (a new signing key) and users
create new API keys.
`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' }, force: { type: 'boolean' }, batch: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || !values.from || !values.to) {
    process.stdout.write(HELP);
    if (!values.help) process.exitCode = 2;
    return;
  }
  if (!isPostgresUrl(values.to)) throw new CopyRefused('--to must be a postgres:// URL');
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  if (batch !== undefined && (!Number.isInteger(batch) || batch < 1)) throw new CopyRefused('--batch must be a positive whole number');
  const from = path.resolve(values.from);
  process.stdout.write(`Copying ${path.join(from, 'parley.db')} into PostgreSQL…\n`);
  const { counts, movedTo } = await copyDatabase({
    fromDataDir: from,
    toUrl: values.to,
    force: values.force,
    batchSize: batch,
    report: (line) => process.stdout.write(`${line}\n`),
    pgDump: process.env.PARLEY_PG_DUMP || undefined,
    confirmBackup: process.env.PARLEY_CONFIRM_BACKUP || undefined,
  });
  const width = Math.max(...counts.map((c) => c.table.length), 5);
  process.stdout.write(`\nRow counts (SQLite → PostgreSQL), all equal:\n`);
  for (const c of counts) process.stdout.write(`  ${c.table.padEnd(width)}  ${String(c.source).padStart(8)} → ${String(c.target).padStart(8)}\n`);
  process.stdout.write(afterCopyNotes(from, values.to, movedTo));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof CopyRefused ? '' : 'migrate-db failed: '}${(error as Error).message}\n`);
  process.exit(1);
});
