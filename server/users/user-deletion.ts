import type { Logger } from '../platform/log';
import type { DbTransaction } from './users.repo';

/**
 * Clean-up another domain runs inside the user-deletion transaction, before the user row goes
 * (rows that ON DELETE CASCADE does not cover, ownership to hand over). Use `trx` for every
 * query: the database has one connection, so a query outside it would wait forever. Throwing
 * aborts the deletion and rolls everything back.
 */
export type UserDeletionHook = (userId: string, trx: DbTransaction) => Promise<void>;

/**
 * Runs before the deletion transaction to note what lives outside the database (file ids,
 * index folders) while the rows still exist; the function it returns runs once the deletion
 * committed (and not at all if it failed).
 */
export type BeforeUserDeletionHook = (userId: string) => Promise<(() => Promise<void>) | void>;

/** Clean-up run after the deletion committed: files on disk, indexes, secrets. Failures are logged, not raised. */
export type AfterUserDeletionHook = (userId: string) => Promise<void>;

/** The hooks other domains register so deleting a user leaves nothing of theirs behind. */
export function createUserDeletionHooks(log: Logger) {
  const before: BeforeUserDeletionHook[] = [];
  const during: UserDeletionHook[] = [];
  const after: AfterUserDeletionHook[] = [];

  async function quietly(userId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      log.warn({ err: error, userId }, 'clean-up after deleting a user failed');
    }
  }

  return {
    /** Registers work to run before the deletion transaction, returning what to finish after it. */
    beforeUserDeleted(hook: BeforeUserDeletionHook): void {
      before.push(hook);
    },
    /** Registers work to run inside the deletion transaction. */
    onUserDeleted(hook: UserDeletionHook): void {
      during.push(hook);
    },
    /** Registers work to run once the deletion committed. */
    afterUserDeleted(hook: AfterUserDeletionHook): void {
      after.push(hook);
    },
    /** Runs the before-hooks; returns their after-commit parts. */
    async prepare(userId: string): Promise<Array<() => Promise<void>>> {
      const finishers: Array<() => Promise<void>> = [];
      for (const hook of before) {
        const finish = await hook(userId);
        if (finish) finishers.push(finish);
      }
      return finishers;
    },
    async runDuring(userId: string, trx: DbTransaction): Promise<void> {
      for (const hook of during) await hook(userId, trx);
    },
    async runAfter(userId: string, finishers: ReadonlyArray<() => Promise<void>>): Promise<void> {
      for (const finish of finishers) await quietly(userId, finish);
      for (const hook of after) await quietly(userId, () => hook(userId));
    },
  };
}
