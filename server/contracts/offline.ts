import { z } from 'zod';

/** The stored offline switch (Admin → Network). */
export const OfflineConfig = z.object({
  /** On: Parley makes no connection outside this computer (providers, downloads, tool servers, web search, update checks). */
  enabled: z.boolean(),
});
export type OfflineConfig = z.infer<typeof OfflineConfig>;

/** POST /api/v1/configs/offline. */
export const OfflineConfigUpdate = z.object({ enabled: z.boolean() });
export type OfflineConfigUpdate = z.infer<typeof OfflineConfigUpdate>;

/** GET and POST /api/v1/configs/offline answer. */
export const OfflineStatus = z.object({
  /** Whether Parley is offline now (the switch, or PARLEY_OFFLINE). */
  offline: z.boolean(),
  /** The admin switch as stored. */
  enabled: z.boolean(),
  /** True when PARLEY_OFFLINE=1 keeps Parley offline whatever the switch says. */
  forced_by_env: z.boolean(),
  /** Networks (CIDR) reachable while offline besides this computer (PARLEY_OFFLINE_ALLOWED_NETWORKS). */
  allowed_networks: z.array(z.string()),
});
export type OfflineStatus = z.infer<typeof OfflineStatus>;
