import { z } from 'zod';

/** A backup archive of the data dir (GET/POST /api/v1/backups). */
export const BackupInfo = z.object({
  /** The file name, `parley-backup-YYYYMMDD-HHMMSS.zip`. */
  name: z.string(),
  /** Bytes. */
  size: z.number(),
  /** Epoch seconds. */
  created_at: z.number(),
});
export type BackupInfo = z.infer<typeof BackupInfo>;
