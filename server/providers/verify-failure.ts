import { DeadlineError } from './deadline';
import { offlineRefusal } from '../platform/net/outbound';

/** The first network error code (`ECONNREFUSED`, `ENOTFOUND`, …) in an error's causes. */
function networkCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 5) return undefined;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && /^E[A-Z_]+$/.test(e.code)) return e.code;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const code = networkCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return networkCode(e.cause, depth + 1);
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing is listening at that address (connection refused)',
  ENOTFOUND: 'the host name is unknown; check the spelling',
  EAI_AGAIN: 'the host name could not be looked up; check the network',
  ECONNRESET: 'the server closed the connection',
  EHOSTUNREACH: 'the host is unreachable from this machine',
  ENETUNREACH: 'the network is unreachable from this machine',
  ETIMEDOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is not trusted',
};

/**
 * Why a connection's verification failed, in words an admin can act on: unreachable (and why),
 * too slow, key refused, wrong URL, or what the provider answered. Never contains the key.
 */
export function verifyFailureReason(error: unknown, url: string): string {
  const refused = offlineRefusal(error);
  if (refused) return refused.message;
  if (error instanceof DeadlineError) return `No answer from ${url} within ${Math.round(error.ms / 1000)} s.`;
  const status = (error as { status?: unknown })?.status;
  const message = error instanceof Error ? error.message : '';
  if (status === 401 || status === 403) return `The provider refused the API key (HTTP ${status}).`;
  if (status === 404) return `No model list at ${url} (HTTP 404): check the base URL (OpenAI-compatible ones usually end in /v1).`;
  if (typeof status === 'number') return `The provider answered HTTP ${status}${message ? `: ${message}` : ''}.`;
  const code = networkCode(error);
  if (code) return `Cannot reach ${url}: ${NETWORK_REASONS[code] ?? code}.`;
  return message ? `${message.replace(/\.$/, '')}.` : 'The provider did not list its models.';
}
