import type { DialogLike, ShellLog } from './facade';
import { createShellText, type ShellText } from './shell-text';

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
  /** The shell's words in the owner's language (the desktop catalog's `desktop.upgrade.*`). */
  text?: ShellText;
}

/**
 * Tells the person what happened. A failed update that took a snapshot offers "Restore the backup
 * taken before the update" (the service is stopped and its lock released by then); a data dir of a
 * newer Parley is explained. The caller quits afterwards in every case.
 */
export async function explainUpgradeFailure(failure: UpgradeFailure, deps: UpgradeFailureDeps): Promise<void> {
  const { t } = deps.text ?? createShellText();
  if (failure.code === 'DATA_FROM_NEWER_VERSION') {
    deps.dialog.showErrorBox(t('desktop.upgrade.newerTitle'), failure.message);
    return;
  }
  if (failure.code !== 'MIGRATION_FAILED' || !failure.snapshot || !failure.dataDir) {
    deps.dialog.showErrorBox(t('desktop.upgrade.failedMessage'), failure.message);
    return;
  }
  const choice = await deps.dialog.showMessageBox({
    type: 'error',
    title: 'Parley',
    message: t('desktop.upgrade.failedMessage'),
    detail: t('desktop.upgrade.failedDetail', { message: failure.message }),
    buttons: [t('desktop.upgrade.restoreButton'), t('desktop.start.quit')],
    defaultId: 1,
    cancelId: 1,
  });
  if (choice.response !== 0) return;
  try {
    const { previous } = await deps.restore(failure.snapshot, failure.dataDir);
    deps.log.info(`restored ${failure.snapshot} into ${failure.dataDir}${previous ? `; the data of the failed start is in ${previous}` : ''}`);
    const detail = `${previous ? `${t('desktop.upgrade.restoredKeptAt', { previous })} ` : ''}${t('desktop.upgrade.restoredDetail')}`;
    await deps.dialog.showMessageBox({ type: 'info', title: 'Parley', message: t('desktop.upgrade.restoredMessage'), detail, buttons: [t('desktop.button.ok')] });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log.error(`restoring ${failure.snapshot} failed: ${message}`);
    deps.dialog.showErrorBox(t('desktop.upgrade.restoreFailedTitle'), `${message}\n\n${failure.snapshot}`);
  }
}
