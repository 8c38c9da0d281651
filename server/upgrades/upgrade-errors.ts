import { StartRefused } from '../platform/start-refused';

/** Why a start stopped before or during the database update. */
export type UpgradeErrorCode = 'DATA_FROM_NEWER_VERSION' | 'MIGRATION_FAILED' | 'BACKUP_REQUIRED';

/**
 * A start refused or stopped by the database update. `code` tells the desktop shell what to
 * offer (it restores `snapshot` on MIGRATION_FAILED); the message says it all to a person (a
 * StartRefused: the command line prints it without a stack trace).
 */
export class UpgradeError extends StartRefused {
  constructor(
    readonly code: UpgradeErrorCode,
    message: string,
    /** The snapshot taken before the update, when one was. */
    readonly snapshot?: string,
    /** The data dir the snapshot restores into. */
    readonly dataDir?: string,
  ) {
    super(message);
  }
}

/** True for an UpgradeError (also one built by another copy of this module, as in a bundled shell). */
export function isUpgradeError(error: unknown): error is UpgradeError {
  return error instanceof Error && error.name === 'UpgradeError' && typeof (error as { code?: unknown }).code === 'string';
}

/** The date stamp of a migration name (`202611270701-job-progress` → `202611270701`). */
export function schemaStamp(name: string | undefined): string {
  if (!name) return 'empty';
  return /^\d{12}/.exec(name)?.[0] ?? name;
}

/** A PostgreSQL URL without its password, fit for messages and logs. */
export function withoutPassword(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1@');
}

/** The command that puts a snapshot back. */
export function restoreCommand(snapshot: string, where: { dataDir: string; databaseUrl?: string }): string {
  if (where.databaseUrl) return `pg_restore --clean --if-exists --no-owner -d "${withoutPassword(where.databaseUrl)}" "${snapshot}"`;
  return `npm run restore -- "${snapshot}" --data-dir "${where.dataDir}" --force`;
}

/** Refusal of a database written by a newer Parley. */
export function newerDataError(input: {
  where: string;
  ours: { version: string; schema: string };
  writer?: { version: string; schema: string };
  unknown: string[];
}): UpgradeError {
  const newer = input.writer ? `Parley ${input.writer.version}` : 'a newer Parley';
  const shown = input.unknown.slice(0, 3).join(', ') + (input.unknown.length > 3 ? ` and ${input.unknown.length - 3} more` : '');
  return new UpgradeError(
    'DATA_FROM_NEWER_VERSION',
    `${input.where} was written by ${newer} (database version ${schemaStamp(input.writer?.schema ?? input.unknown.at(-1))}); ` +
      `this is Parley ${input.ours.version} (database version ${schemaStamp(input.ours.schema)}), which does not know its changes (${shown}). ` +
      `Parley never changes a database back to an older version, and it does not open one it cannot read fully: ` +
      `install ${input.writer ? `Parley ${input.writer.version}` : 'the newer Parley'} or later again, or restore a backup made by this version.`,
  );
}
