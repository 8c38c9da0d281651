import { z } from 'zod';

/** The default fixed port of LAN sharing: colleagues bookmark it, so it does not change between runs. */
export const DEFAULT_LAN_PORT = 8765;

/** The stored "Share on local network" admin setting. */
export const LanConfig = z.object({
  /** Whether the service also listens on every network interface. Off by default. */
  enabled: z.boolean(),
  /** The fixed port of the LAN listener (unprivileged ports only). */
  port: z.number().int().min(1024, 'must be between 1024 and 65535').max(65_535, 'must be between 1024 and 65535'),
});
export type LanConfig = z.infer<typeof LanConfig>;

/** POST /api/v1/configs/lan: any subset of the setting; unknown fields are ignored. */
export const LanConfigUpdate = LanConfig.partial();
export type LanConfigUpdate = z.infer<typeof LanConfigUpdate>;

/** GET/POST /api/v1/configs/lan answer: the setting, and what is actually happening. */
export interface LanStatus {
  enabled: boolean;
  port: number;
  /** True while the LAN listener is open (false when off, or when the port could not be opened at start). */
  listening: boolean;
  /** This machine's LAN IPv4 addresses. */
  addresses: string[];
  /** `http://<address>:<port>` for each address: what to give to colleagues. */
  urls: string[];
  /** Things the admin should know while sharing (for example: sign-up is open). */
  warnings: string[];
  /** Why the listener is not open although sharing is on, else null. */
  error: string | null;
}
