import { type HttpError } from '../http/errors';

interface SqliteError extends Error {
  code?: string;
  errno?: number;
}

// PostgreSQL's SQLSTATE code for the same violation.
const PG_UNIQUE_VIOLATION = '23505';

/** True when `error` is a UNIQUE constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as SqliteError;
  return (e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(e.message ?? '')) || e?.code === PG_UNIQUE_VIOLATION;
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
