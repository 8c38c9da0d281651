import { type HttpError } from '../http/errors';

interface SqliteError extends Error {
  code?: string;
  errno?: number;
}

// PostgreSQL's SQLSTATE codes for the same two violations.
const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';

/** True when `error` is a UNIQUE constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as SqliteError;
  return (e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(e.message ?? '')) || e?.code === PG_UNIQUE_VIOLATION;
}

/** True when `error` is a FOREIGN KEY violation (SQLite or PostgreSQL). */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as SqliteError;
  return (e?.code === 'SQLITE_CONSTRAINT' && /FOREIGN KEY/i.test(e.message ?? '')) || e?.code === PG_FOREIGN_KEY_VIOLATION;
}

/** Runs a repo write, turning a UNIQUE violation into the given HttpError. */
export async function onUniqueViolation<T>(work: () => Promise<T>, toError: () => HttpError): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw toError();
    throw error;
  }
}
