import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/bcrypt';

const COST = 10;

/**
 * bcrypt runs in native code on libuv's thread pool (never on the event loop), at most this many
 * at a time: the pool (4 threads by default) is shared with SQLite and file I/O, so a burst of
 * sign-ins must leave threads free for everyone else's requests, and one core free for the event
 * loop (on 2 cores, one hash at a time: two kept both cores busy and chats' first tokens waited).
 */
const MAX_PARALLEL = Math.max(1, Math.min(2, availableParallelism() - 1));
let running = 0;
const waiting: Array<() => void> = [];

async function inPool<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** bcrypt hash of a password (at most 72 bytes, checked by the request schema). */
export function hashPassword(password: string): Promise<string> {
  return inPool(() => hash(password, COST));
}

/** Compares a password with a stored hash ($2a$/$2b$/$2y$, older bcryptjs hashes included); false for a missing or unreadable hash. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  return inPool(() => verify(password, stored)).catch(() => false);
}

/** A hash to compare against when the account does not exist, so timing does not reveal it. */
export function dummyHash(): Promise<string> {
  dummyHash_ ??= hashPassword('parley-no-such-account');
  return dummyHash_;
}
let dummyHash_: Promise<string> | undefined;
