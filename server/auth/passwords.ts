import bcrypt from 'bcryptjs';

const COST = 10;

/** bcrypt hash of a password (at most 72 bytes, checked by the request schema). */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

/** Compares a password with a stored hash; false for a missing hash. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  return bcrypt.compare(password, hash);
}

/** A hash to compare against when the account does not exist, so timing does not reveal it. */
export function dummyHash(): Promise<string> {
  dummyHash_ ??= bcrypt.hash('parley-no-such-account', COST);
  return dummyHash_;
}
let dummyHash_: Promise<string> | undefined;
