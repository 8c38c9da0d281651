import type { Logger } from '../platform/log';
import type { DbTransaction } from './users.repo';

/**
 * Clean-up another domain runs inside the user-deletion transaction, before the user row goes
 * (rows that ON DELETE CASCADE does not cover, ownership to hand over). Throwing aborts the
 * deletion and rolls everything back.
 */
export type UserDeletionHook = (userId: string, trx: DbTransaction) => Promise<void>;

/** Clean-up run after the deletion committed: files on disk, indexes, secrets. Failures are logged, not raised. */
export type AfterUserDeletionHook = (userId: string) => Promise<void>;

/** The hooks other domains register so deleting a user leaves nothing of theirs behind. */
export function createUserDeletionHooks(log: Logger) {
  const during: UserDeletionHook[] = [];
  const after: AfterUserDeletionHook[] = [];
  return {
    /** Registers work to run inside the deletion transaction. */
    onUserDeleted(hook: UserDeletionHook): void {
      during.push(hook);
    },
    /** Registers work to run once the deletion committed. */
    afterUserDeleted(hook: AfterUserDeletionHook): void {
      after.push(hook);
    },
    async runDuring(userId: string, trx: DbTransaction): Promise<void> {
      for (const hook of during) await hook(userId, trx);
    },
    async runAfter(userId: string): Promise<void> {
      for (const hook of after) {
        try {
          await hook(userId);
        } catch (error) {
          log.warn({ err: error, userId }, 'clean-up after deleting a user failed');
        }
      }
    },
  };
}
