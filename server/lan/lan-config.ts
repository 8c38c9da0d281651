import { defineSection } from '../config';
import { DEFAULT_LAN_PORT, LanConfig } from '../contracts/lan';

/** The "Share on local network" settings section: off by default. */
export const LanConfigSection = defineSection<LanConfig>('lan', LanConfig, { enabled: false, port: DEFAULT_LAN_PORT });
