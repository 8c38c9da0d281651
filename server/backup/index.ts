export { createBackupRepo, type BackupRepo } from './backup.repo';
export { createBackupService, PRE_UPDATE_NAME, type BackupService } from './backup.service';
export { backupRoutes } from './backup.routes';
export { restoreBackup } from './restore';
