import { defineSection, type ConfigService } from '../config';
import { OfflineConfig, type OfflineStatus } from '../contracts/offline';
import { conflict } from '../platform/http/errors';
import { registerOutboundPolicy } from '../platform/net/outbound';

/** The offline switch: off by default. */
export const OfflineSection = defineSection<OfflineConfig>('offline', OfflineConfig, { enabled: false });

/**
 * Offline mode: PARLEY_OFFLINE=1 (fixed for the process) or the admin switch (stored, changes at
 * once). Registers the service's policy with the one outbound guard (platform/net/outbound.ts).
 */
export function createOfflineMode(deps: { config: Pick<ConfigService, 'get' | 'set'>; env: boolean; allowedNetworks: readonly string[] }) {
  const switchedOn = async () => (await deps.config.get(OfflineSection)).enabled;
  const unregister = registerOutboundPolicy({
    offline: async () => deps.env || (await switchedOn()),
    reason: () => (deps.env ? 'PARLEY_OFFLINE=1' : 'the Offline switch in Admin settings → Network'),
    allowedNetworks: deps.allowedNetworks,
  });

  async function status(): Promise<OfflineStatus> {
    const enabled = await switchedOn();
    return { offline: deps.env || enabled, enabled, forced_by_env: deps.env, allowed_networks: [...deps.allowedNetworks] };
  }

  return {
    status,
    /** Turns the switch on or off; turning it off while PARLEY_OFFLINE=1 is refused (409), it would change nothing. */
    async update(enabled: boolean): Promise<OfflineStatus> {
      if (!enabled && deps.env) throw conflict('PARLEY_OFFLINE=1 is set where Parley runs: it stays offline until that setting is removed and Parley restarted', 'OFFLINE_FORCED');
      await deps.config.set(OfflineSection, { enabled });
      return status();
    },
    /** Unregisters the policy (the service is closing). */
    close: unregister,
  };
}
export type OfflineMode = ReturnType<typeof createOfflineMode>;
