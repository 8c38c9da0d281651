import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../platform/clock';
import { closeDatabase, openDatabase } from '../platform/db/knex';
import { readBootConfig } from '../platform/env';
import { createLogger } from '../platform/log';
import { createBackupRepo, PG_BACKUP_REFUSAL } from './backup.repo';
import { createBackupService } from './backup.service';
import { restoreBackup } from './restore';

const HELP = `Usage:
  npm run backup -- [--data-dir DIR] [--out FILE]     write a consistent snapshot (works while the service runs)
  npm run restore -- FILE [--data-dir DIR] [--force]  restore a snapshot (stop the service first)
`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, file] = positionals;
  if (values.help || !command) {
    process.stdout.write(HELP);
    return;
  }
  const boot = readBootConfig({ dataDir: values['data-dir'] });
  if (boot.databaseUrl) throw new Error(`PARLEY_DATABASE_URL is set. ${PG_BACKUP_REFUSAL}; restore with pg_restore.`);
  if (command === 'backup') {
    // Opening a missing or mistyped folder would create an empty database and "back it up".
    if (!existsSync(path.join(boot.dataDir, 'parley.db'))) {
      throw new Error(`${boot.dataDir} holds no Parley database (parley.db); check --data-dir or PARLEY_DATA_DIR`);
    }
    const { log } = createLogger({ level: 'warn', stdout: false });
    const db = openDatabase(boot.dataDir);
    try {
      // Backed up as it is: a backup never updates the database (an older one is the point of a backup).
      const service = createBackupService({ repo: createBackupRepo(db), dataDir: boot.dataDir, clock: systemClock, log });
      const info = await service.create(values.out ? path.resolve(values.out) : undefined);
      process.stdout.write(`Backup written: ${values.out ? path.resolve(values.out) : path.join(boot.dataDir, 'backups', info.name)} (${info.size} bytes)\n`);
    } finally {
      await closeDatabase(db);
    }
    return;
  }
  if (command === 'restore') {
    if (!file) throw new Error('restore needs the backup file');
    const result = await restoreBackup({ archive: path.resolve(file), dataDir: boot.dataDir, force: values.force });
    process.stdout.write(`Restored ${result.files} files into ${boot.dataDir}${result.previous ? `; the previous data is in ${result.previous}` : ''}\n`);
    return;
  }
  throw new Error(`Unknown command '${command}'\n${HELP}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
