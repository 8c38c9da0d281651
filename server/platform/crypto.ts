import { createHash } from 'node:crypto';

/** Hex SHA-256 of a string; used to store lookup hashes of high-entropy secrets such as API keys. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
