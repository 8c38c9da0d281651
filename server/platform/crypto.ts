import { createHash, timingSafeEqual } from 'node:crypto';

/** Hex SHA-256 of a string; used to store lookup hashes of high-entropy secrets such as API keys. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two strings in constant time (for equal lengths). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
