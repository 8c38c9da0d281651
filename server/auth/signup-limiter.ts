import type { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../platform/http/errors';
import { loadExports } from '../platform/library-exports';

/**
 * Caps account creation by sign-up per IP per hour, so a stranger on the LAN cannot flood the
 * user list. `perHour` 0 turns it off.
 */
export function createSignupLimiter(perHour: number) {
  // Built at the first sign-up (the library is loaded then, not at start-up).
  let limiter: Promise<RateLimiterMemory> | undefined;
  const load = () =>
    (limiter ??= loadExports(import('rate-limiter-flexible'), 'rate-limiter-flexible', 'RateLimiterMemory').then(({ RateLimiterMemory: Limiter }) => new Limiter({ keyPrefix: 'signup', points: Math.max(1, perHour), duration: 3600 })));
  return {
    /** Counts one sign-up attempt from `ip`; throws 429 past the limit. */
    async consume(ip: string): Promise<void> {
      if (perHour <= 0) return;
      const byIp = await load();
      try {
        await byIp.consume(ip, 1);
      } catch (rejection) {
        const wait = (rejection as RateLimiterRes).msBeforeNext / 1000;
        throw tooManyRequests(`Too many sign-ups from this address. Try again in ${Math.ceil(wait)} seconds.`, wait);
      }
    },
  };
}
export type SignupLimiter = ReturnType<typeof createSignupLimiter>;
