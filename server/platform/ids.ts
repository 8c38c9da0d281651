import { randomBytes, randomUUID } from 'node:crypto';

/** A new random UUID (v4), the id form of users, groups, chats and knowledge bases. */
export function newId(): string {
  return randomUUID();
}

/** A URL-safe random token of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
