import { type HttpError } from '../http/errors';

interface SqliteError extends Error {
  code?: string;
  errno?: number;
}

/** True when `error` is a UNIQUE constraint violation from SQLite. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as SqliteError;
  return e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(e.message ?? '');
}

/** True when `error` is a FOREIGN KEY violation from SQLite. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as SqliteError;
  return e?.code === 'SQLITE_CONSTRAINT' && /FOREIGN KEY/i.test(e.message ?? '');
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
