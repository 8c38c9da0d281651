export { createBackupRepo } from './backup.repo';
export { createBackupService, type BackupService } from './backup.service';
export { backupRoutes } from './backup.routes';
export { restoreBackup } from './restore';
