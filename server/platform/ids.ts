import { randomBytes, randomUUID } from 'node:crypto';

/** A new random UUID (v4), the id form of users, groups, chats and knowledge bases. */
export function newId(): string {
  return randomUUID();
}

/** A URL-safe random token of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

let lastMs = 0;
let sequence = 0;

/**
 * A new time-ordered UUID (version 7): ids made later sort after earlier ones, also within one
 * millisecond (a 12-bit counter), so rows keep their order of creation when ordered by id.
 */
export function newOrderedId(now = Date.now()): string {
  if (now <= lastMs) {
    sequence += 1;
    if (sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
  } else {
    lastMs = now;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  const ms = lastMs;
  for (let i = 5; i >= 0; i -= 1) bytes[5 - i] = Math.floor(ms / 2 ** (8 * i)) & 0xff;
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
