import type { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../platform/http/errors';
import { loadExports } from '../platform/library-exports';

/** How many failures per IP are allowed for each one allowed per account. */
const IP_FACTOR = 5;

export interface SigninLimiterOptions {
  /** Failed sign-ins allowed per account per window; 0 turns limiting off. */
  perAccount: number;
  windowSeconds: number;
}

/**
 * Counts failed sign-ins per account and per IP. Once either budget is spent, every sign-in
 * for that account or from that IP is refused with 429 until the window passes — a correct
 * password included, or guessing could go on. A successful sign-in clears the account's count.
 */
export function createSigninLimiter(options: SigninLimiterOptions) {
  const enabled = options.perAccount > 0;
  // Built at the first sign-in (the library is loaded then, not at start-up).
  let limiters: Promise<{ byAccount: RateLimiterMemory; byIp: RateLimiterMemory }> | undefined;
  const load = () =>
    (limiters ??= loadExports(import('rate-limiter-flexible'), 'rate-limiter-flexible', 'RateLimiterMemory').then(({ RateLimiterMemory: Limiter }) => ({
      byAccount: new Limiter({ keyPrefix: 'acct', points: Math.max(1, options.perAccount), duration: options.windowSeconds }),
      byIp: new Limiter({ keyPrefix: 'ip', points: Math.max(1, options.perAccount * IP_FACTOR), duration: options.windowSeconds }),
    })));

  const blockedFor = (res: RateLimiterRes | null, points: number): number | undefined =>
    res && res.consumedPoints >= points ? res.msBeforeNext / 1000 : undefined;

  return {
    /** Throws 429 when the account or the IP has no attempts left. */
    async check(account: string, ip: string): Promise<void> {
      if (!enabled) return;
      const { byAccount, byIp } = await load();
      const [a, i] = await Promise.all([byAccount.get(account), byIp.get(ip)]);
      const wait = blockedFor(a, byAccount.points) ?? blockedFor(i, byIp.points);
      if (wait !== undefined) {
        throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
      }
    },
    /** Records a failed attempt. */
    async failed(account: string, ip: string): Promise<void> {
      if (!enabled) return;
      const { byAccount, byIp } = await load();
      await Promise.all([byAccount.penalty(account, 1), byIp.penalty(ip, 1)]);
    },
    /** Clears the account's failures after a successful sign-in. */
    async succeeded(account: string): Promise<void> {
      if (!enabled) return;
      const { byAccount } = await load();
      await byAccount.delete(account);
    },
  };
}
export type SigninLimiter = ReturnType<typeof createSigninLimiter>;
