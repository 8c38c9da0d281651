import { createRequire } from 'node:module';
import type PgModule from 'pg';

const requireHere = createRequire(import.meta.url);
let loaded: typeof PgModule | undefined;

/**
 * The PostgreSQL driver, loaded on first use: a SQLite install (the default) never loads pg and
 * its type parsers at start. Synchronous, since opening a database is (pg is a CommonJS package
 * kept outside the bundle, so `require` finds the same copy a static import would).
 */
export function pgDriver(): typeof PgModule {
  loaded ??= requireHere('pg') as typeof PgModule;
  return loaded;
}
