import { appVersion } from '../platform/app-version';
import type { Clock } from '../platform/clock';
import { MIGRATIONS, type MigrationList } from '../platform/db/migrations';
import type { Logger } from '../platform/log';
import { takePreMigrationSnapshot } from './pre-migration-snapshot';
import type { BackupRepo } from '../backup';
import type { UpgradesRepo } from './upgrades.repo';
import { newerDataError, restoreCommand, schemaStamp, UpgradeError } from './upgrade-errors';

export interface UpgradeOptions {
  /** The database's own record of its schema (and its migrations). */
  repo: UpgradesRepo;
  /** Its backup operations (the SQLite snapshot). */
  backups: BackupRepo;
  /** Where `backups/` is (the data dir, also with PostgreSQL). */
  dataDir: string;
  /** Set when the database is PostgreSQL. */
  databaseUrl?: string;
  clock: Clock;
  log: Logger;
  /** PARLEY_PG_DUMP. */
  pgDump?: string;
  /** PARLEY_CONFIRM_BACKUP. */
  confirmBackup?: string;
  /** The migrations this Parley knows (tests add their own). */
  migrations?: MigrationList;
  /** This Parley's version (package.json unless a test says otherwise). */
  version?: string;
}

/** What the update did. */
export interface UpgradeResult {
  /** Migrations applied now, in order. */
  applied: string[];
  /** The snapshot taken before them. */
  snapshot?: string;
}

/** Wraps each migration so the one that fails can be named. */
function tracked(list: MigrationList, current: { name?: string }): MigrationList {
  return list.map(([name, migration]) => [
    name,
    {
      up: async (knex) => {
        current.name = name;
        await migration.up(knex);
      },
      down: (knex) => migration.down(knex),
    },
  ]);
}

/**
 * Brings the database to this Parley's schema, safely: a database written by a newer Parley
 * (migrations this one does not know) is refused before anything is read or written; a database
 * that holds data is snapshotted before the first pending migration; every pending migration runs
 * in one transaction, so a failure leaves it as it was and the error names the failed migration,
 * the snapshot and the command that restores it. The version that opened the database is recorded.
 */
export async function runUpgrade(options: UpgradeOptions): Promise<UpgradeResult> {
  const { repo } = options;
  const list = options.migrations ?? MIGRATIONS;
  const known = list.map(([name]) => name);
  const ours = { version: options.version ?? appVersion(), schema: known.at(-1) ?? '' };
  const where = options.databaseUrl ? 'This PostgreSQL database' : `The data folder ${options.dataDir}`;

  const applied = await repo.appliedMigrations();
  const knownSet = new Set(known);
  const unknown = applied.filter((name) => !knownSet.has(name));
  if (unknown.length > 0) {
    // The last recorded writer is the newer one only if it knew those migrations (an update may not record itself).
    const writer = await repo.lastWriter();
    throw newerDataError({ where, ours, writer: writer && !knownSet.has(writer.schema) ? writer : undefined, unknown });
  }

  const done = new Set(applied);
  const pending = known.filter((name) => !done.has(name));
  let snapshot: string | undefined;
  if (pending.length > 0) {
    const from = schemaStamp(applied.at(-1));
    const to = schemaStamp(ours.schema);
    if (applied.length > 0) {
      snapshot = await takePreMigrationSnapshot({
        dialect: repo.dialect,
        backups: options.backups,
        dataDir: options.dataDir,
        databaseUrl: options.databaseUrl,
        from,
        to,
        clock: options.clock,
        log: options.log,
        pgDump: options.pgDump,
        confirmBackup: options.confirmBackup,
      });
    }
    const current: { name?: string } = {};
    try {
      await repo.migrate(tracked(list, current));
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      options.log.error({ err: error, migration: current.name, snapshot }, 'database update failed; nothing was changed');
      const back = snapshot
        ? ` If anything looks wrong, restore the snapshot taken before the update (${snapshot}): stop Parley and run ${restoreCommand(snapshot, options)}.`
        : '';
      throw new UpgradeError(
        'MIGRATION_FAILED',
        `Parley ${ours.version} could not update the database from version ${from} to ${to}: migration ${current.name ?? '(before the first one)'} failed: ${cause}. ` +
          `Nothing was changed: every step of an update runs in one transaction, so the database is as it was. ` +
          `Keep using the previous Parley with this data until a fixed version is out.${back}`,
        snapshot,
        options.dataDir,
      );
    }
    options.log.info({ from, to, applied: pending.length, snapshot }, 'database updated');
  }
  await repo.recordWriter(ours, options.clock.now());
  return { applied: pending, snapshot };
}
