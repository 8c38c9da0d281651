import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/bcrypt';
import { tooManyRequests } from '../platform/http/errors';

const COST = 10;

/**
 * bcrypt runs in native code on libuv's thread pool (never on the event loop), at most this many
 * at a time: the pool (4 threads by default) is shared with SQLite and file I/O, so a burst of
 * sign-ins must leave threads free for everyone else's requests, and one core free for the event
 * loop (on 2 cores, one hash at a time: two kept both cores busy and chats' first tokens waited).
 */
const MAX_PARALLEL = Math.max(1, Math.min(2, availableParallelism() - 1));
let running = 0;

/** Who a password check is for: sign-ins queue fairly by address, then by account. */
export interface PasswordLane {
  address: string;
  account: string;
}
/** Work that is not a sign-in (sign-up, password change, an admin setting a password). */
const SERVICE_LANE: PasswordLane = { address: '', account: '' };
/** Sign-ins one address may have waiting for a hash at once; more are refused at once (429). Room for an office signing in together behind one NAT address or proxy (bench:load: 20 at once). */
export const MAX_WAITING_PER_ADDRESS = 32;

/**
 * Waiting work by address, then by account, each turn to the next address in rotation and within
 * it to its next account: 100 sign-ins from one address (or for one account) make someone else's
 * wait for one hash of theirs, not for all 100.
 */
const waiting = new Map<string, Map<string, Array<() => void>>>();
const waitingCount = new Map<string, number>();

/** The address whose work started last: a newly waiting address goes before it, not after. */
let lastServed: string | undefined;

function enqueue(lane: PasswordLane, start: () => void): void {
  const known = waiting.get(lane.address);
  const accounts = known ?? new Map<string, Array<() => void>>();
  if (!known && lastServed !== undefined && waiting.keys().next().value === lastServed) {
    // The address just served is both first and last while it is alone: a newcomer takes the next turn.
    const others = [...waiting];
    waiting.clear();
    waiting.set(lane.address, accounts);
    for (const [address, queued] of others) waiting.set(address, queued);
  } else {
    waiting.set(lane.address, accounts);
  }
  accounts.set(lane.account, [...(accounts.get(lane.account) ?? []), start]);
  waitingCount.set(lane.address, (waitingCount.get(lane.address) ?? 0) + 1);
}

function startNext(): void {
  const [address, accounts] = waiting.entries().next().value ?? [];
  if (address === undefined || !accounts) return;
  const [account, jobs] = accounts.entries().next().value ?? [];
  if (account === undefined || !jobs) return;
  const start = jobs.shift();
  // Rotate: this account and this address go to the back of their lines.
  accounts.delete(account);
  if (jobs.length > 0) accounts.set(account, jobs);
  waiting.delete(address);
  if (accounts.size > 0) waiting.set(address, accounts);
  lastServed = address;
  const left = (waitingCount.get(address) ?? 1) - 1;
  if (left > 0) waitingCount.set(address, left);
  else waitingCount.delete(address);
  start?.();
}

async function inPool<T>(work: () => Promise<T>, lane: PasswordLane = SERVICE_LANE): Promise<T> {
  if (running >= MAX_PARALLEL) {
    if (lane !== SERVICE_LANE && (waitingCount.get(lane.address) ?? 0) >= MAX_WAITING_PER_ADDRESS) {
      throw tooManyRequests('Too many sign-ins at once from this address. Try again in a few seconds.', 5);
    }
    await new Promise<void>((resolve) => enqueue(lane, resolve));
  }
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    startNext();
  }
}

/** bcrypt hash of a password (at most 72 bytes, checked by the request schema). */
export function hashPassword(password: string): Promise<string> {
  return inPool(() => hash(password, COST));
}

/** Compares a password with a stored hash ($2a$/$2b$/$2y$, older bcryptjs hashes included); false for a missing or unreadable hash. */
export async function verifyPassword(password: string, stored: string | null, lane?: PasswordLane): Promise<boolean> {
  if (!stored) return false;
  return inPool(() => verify(password, stored).catch(() => false), lane);
}

/** A hash to compare against when the account does not exist, so timing does not reveal it. */
export function dummyHash(): Promise<string> {
  dummyHash_ ??= hashPassword('parley-no-such-account');
  return dummyHash_;
}
let dummyHash_: Promise<string> | undefined;
