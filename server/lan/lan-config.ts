import { defineSection } from '../config';
import { DEFAULT_LAN_PORT, LanConfig } from '../contracts/lan';

/** The "Share on local network" settings section: off by default, HTTPS with a generated certificate when on. */
export const LanConfigSection = defineSection<LanConfig>('lan', LanConfig, { enabled: false, port: DEFAULT_LAN_PORT, tls: 'generated' });
