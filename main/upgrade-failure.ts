import type { DialogLike, ShellLog } from './facade';

/**
 * What the desktop app says when its service refused to start over the database update. Kept
 * together here (main's texts live in its modules) so they move to the language catalogs in one piece.
 */
export const UPGRADE_FAILURE_TEXT = {
  title: 'Parley',
  failedMessage: 'Parley could not update its data',
  failedDetail: (message: string) => `${message}\n\nYou can restore the backup Parley took just before the update, or quit and keep your data as it is.`,
  restoreButton: 'Restore the backup taken before the update',
  quitButton: 'Quit',
  restoredMessage: 'The backup taken before the update is restored',
  restoredDetail: (previous: string | undefined) =>
    `${previous ? `The data as it was at the failed start is kept in ${previous}. ` : ''}Install the previous version of Parley to keep working with it until a fixed update is out: this version would try the same update again.`,
  okButton: 'OK',
  restoreFailedTitle: 'The backup could not be restored',
  newerTitle: 'Parley cannot open this data',
} as const;

/** The service's refusal over the database update, as the shell reads it (server/upgrades UpgradeError). */
export interface UpgradeFailure {
  code: 'DATA_FROM_NEWER_VERSION' | 'MIGRATION_FAILED' | 'BACKUP_REQUIRED';
  message: string;
  snapshot?: string;
  dataDir?: string;
}

/** True for the service's UpgradeError (checked by shape: the shell and the service may be separate bundles). */
export function asUpgradeFailure(error: unknown): UpgradeFailure | undefined {
  if (!(error instanceof Error) || error.name !== 'UpgradeError') return undefined;
  const code = (error as { code?: unknown }).code;
  if (code !== 'DATA_FROM_NEWER_VERSION' && code !== 'MIGRATION_FAILED' && code !== 'BACKUP_REQUIRED') return undefined;
  const { snapshot, dataDir } = error as { snapshot?: unknown; dataDir?: unknown };
  return { code, message: error.message, snapshot: typeof snapshot === 'string' ? snapshot : undefined, dataDir: typeof dataDir === 'string' ? dataDir : undefined };
}

export interface UpgradeFailureDeps {
  dialog: Pick<DialogLike, 'showMessageBox' | 'showErrorBox'>;
  /** Puts a backup archive back into a data dir (server/backup restoreBackup, with force). */
  restore: (archive: string, dataDir: string) => Promise<{ previous?: string }>;
  log: ShellLog;
}

/**
 * Tells the person what happened. A failed update that took a snapshot offers "Restore the backup
 * taken before the update" (the service is stopped and its lock released by then); a data dir of a
 * newer Parley is explained. The caller quits afterwards in every case.
 */
export async function explainUpgradeFailure(failure: UpgradeFailure, deps: UpgradeFailureDeps): Promise<void> {
  const text = UPGRADE_FAILURE_TEXT;
  if (failure.code === 'DATA_FROM_NEWER_VERSION') {
    deps.dialog.showErrorBox(text.newerTitle, failure.message);
    return;
  }
  if (failure.code !== 'MIGRATION_FAILED' || !failure.snapshot || !failure.dataDir) {
    deps.dialog.showErrorBox(text.failedMessage, failure.message);
    return;
  }
  const choice = await deps.dialog.showMessageBox({
    type: 'error',
    title: text.title,
    message: text.failedMessage,
    detail: text.failedDetail(failure.message),
    buttons: [text.restoreButton, text.quitButton],
    defaultId: 1,
    cancelId: 1,
  });
  if (choice.response !== 0) return;
  try {
    const { previous } = await deps.restore(failure.snapshot, failure.dataDir);
    deps.log.info(`restored ${failure.snapshot} into ${failure.dataDir}${previous ? `; the data of the failed start is in ${previous}` : ''}`);
    await deps.dialog.showMessageBox({ type: 'info', title: text.title, message: text.restoredMessage, detail: text.restoredDetail(previous), buttons: [text.okButton] });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log.error(`restoring ${failure.snapshot} failed: ${message}`);
    deps.dialog.showErrorBox(text.restoreFailedTitle, `${message}\n\n${failure.snapshot}`);
  }
}
