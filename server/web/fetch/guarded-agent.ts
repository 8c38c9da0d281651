import net from 'node:net';
import type { Agent, buildConnector } from 'undici';
import { loadUndici } from '../../platform/lazy-libraries';
import { bareAddress, type AddressPolicy } from './address-policy';
import { WebFetchError } from './fetch-errors';
import { systemResolve, type Resolve } from './resolver';

/**
 * Asked before every connection web search opens (engines and pages): throws (or rejects) when
 * outbound connections are switched off; the refusal becomes a {@link WebFetchError} `OFFLINE`
 * carrying its message.
 */
export type OutboundGate = (target: { host: string; purpose: 'web-engine' | 'web-page' }) => void | Promise<void>;

/** No gate: every connection may open. */
export const OPEN_GATE: OutboundGate = () => undefined;

export interface GuardedAgentOptions {
  purpose: 'web-engine' | 'web-page';
  gate: OutboundGate;
  /**
   * Which addresses a connection may reach, asked at connect time with the resolved address, so
   * every redirect and every new connection is checked. Absent: any address (engine endpoints an
   * admin set are trusted).
   */
  policy?: () => AddressPolicy;
  resolve?: Resolve;
  connectTimeoutMs?: number;
}

/**
 * An undici Agent whose connections resolve their host themselves and connect to the address
 * they checked (no second lookup a rebinding DNS server could answer differently). TLS still
 * verifies the certificate for the host name (undici takes the server name from the Host).
 */
export async function createGuardedAgent(options: GuardedAgentOptions): Promise<Agent> {
  const { Agent: Dispatcher, buildConnector: connector } = await loadUndici();
  const resolve = options.resolve ?? systemResolve;
  const base = connector({ timeout: options.connectTimeoutMs ?? 10_000 });
  const connect: buildConnector.connector = (target, callback) => {
    const host = bareAddress(target.hostname);
    const pick = async (): Promise<string> => {
      try {
        await options.gate({ host, purpose: options.purpose });
      } catch (error) {
        throw error instanceof WebFetchError ? error : new WebFetchError('OFFLINE', error instanceof Error ? error.message : 'Parley is offline');
      }
      const addresses = net.isIP(host) !== 0 ? [host] : await resolve(host);
      if (addresses.length === 0) throw new WebFetchError('UNREACHABLE', `${host} has no address`);
      const policy = options.policy?.();
      const usable = policy ? addresses.filter((address) => policy.permits(address)) : addresses;
      if (usable.length === 0) throw new WebFetchError('BLOCKED_ADDRESS', `${host} is a private, local or reserved address; web pages may only be read from public addresses (an admin can allow networks in WEB_FETCH_ALLOWED_NETWORKS)`);
      return usable[0]!;
    };
    pick().then(
      (address) => base({ ...target, hostname: address }, callback),
      (error: unknown) => {
        const known = error instanceof WebFetchError ? error : new WebFetchError('UNREACHABLE', `${host} could not be resolved`);
        callback(known, null);
      },
    );
  };
  return new Dispatcher({ connect, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000 });
}
