import type { Role } from '../contracts/auth';
import type { ChangeFeed } from '../platform/db/table-cache';
import type { Logger } from '../platform/log';

/** The live event admins' clients get: how many sign-ups wait for approval. */
export const PENDING_SIGNUPS_EVENT = 'users:pending';

export interface PendingSignupsDeps {
  /** Changes of the users table (a sign-up, an approval, a deletion, on any instance). */
  feed: ChangeFeed;
  repo: { countByRole(role: Role): Promise<number>; idsByRole(role: Role): Promise<string[]> };
  realtime: { emitToUser(userId: string, event: string, payload: unknown): void };
  log: Logger;
  /** Waits this long after a change before counting, so a burst of changes counts once. */
  settleMs?: number;
}

/**
 * Tells every admin's open clients how many sign-ups wait for approval whenever that number
 * changes (`users:pending {count}`), so the admin UI shows new sign-ups without a reload. Other
 * changes of the table (last-active times) cost one count and send nothing.
 */
export function announcePendingSignups(deps: PendingSignupsDeps): { stop(): void } {
  let last: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function check(): Promise<void> {
    const count = await deps.repo.countByRole('pending');
    if (count === last || stopped) return;
    last = count;
    for (const adminId of await deps.repo.idsByRole('admin')) deps.realtime.emitToUser(adminId, PENDING_SIGNUPS_EVENT, { count });
  }

  deps.feed(() => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void check().catch((error: unknown) => deps.log.debug({ err: error }, 'counting pending sign-ups failed')), deps.settleMs ?? 150);
    timer.unref();
  });
  void deps.repo
    .countByRole('pending')
    .then((count) => (last ??= count))
    .catch(() => undefined);

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
