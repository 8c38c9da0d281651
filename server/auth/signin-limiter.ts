import type { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../platform/http/errors';
import { loadExports } from '../platform/library-exports';

/** How many failures per IP are allowed for each one allowed per account. */
const IP_FACTOR = 5;
/**
 * Sign-ins of any outcome (correct passwords too) allowed per account and per IP for each failure
 * allowed per account: a person signs in a few times a day and scripts use API keys, while a
 * flood of correct sign-ins would keep the password hashing busy for everyone.
 */
const ATTEMPT_FACTOR = { account: 5, ip: 50 };

export interface SigninLimiterOptions {
  /** Failed sign-ins allowed per account per window; 0 turns limiting off. */
  perAccount: number;
  windowSeconds: number;
}

/**
 * Counts failed sign-ins per account and per IP. Once either budget is spent, every sign-in
 * for that account or from that IP is refused with 429 until the window passes — a correct
 * password included, or guessing could go on. A successful sign-in clears the account's count.
 * Every sign-in, a correct one too, also counts against a larger budget per account and per IP.
 */
export function createSigninLimiter(options: SigninLimiterOptions) {
  const enabled = options.perAccount > 0;
  // Built at the first sign-in (the library is loaded then, not at start-up).
  let limiters: Promise<Record<'byAccount' | 'byIp' | 'attemptsByAccount' | 'attemptsByIp', RateLimiterMemory>> | undefined;
  const load = () =>
    (limiters ??= loadExports(import('rate-limiter-flexible'), 'rate-limiter-flexible', 'RateLimiterMemory').then(({ RateLimiterMemory: Limiter }) => ({
      byAccount: new Limiter({ keyPrefix: 'acct', points: Math.max(1, options.perAccount), duration: options.windowSeconds }),
      byIp: new Limiter({ keyPrefix: 'ip', points: Math.max(1, options.perAccount * IP_FACTOR), duration: options.windowSeconds }),
      attemptsByAccount: new Limiter({ keyPrefix: 'acct-all', points: Math.max(1, options.perAccount * ATTEMPT_FACTOR.account), duration: options.windowSeconds }),
      attemptsByIp: new Limiter({ keyPrefix: 'ip-all', points: Math.max(1, options.perAccount * ATTEMPT_FACTOR.ip), duration: options.windowSeconds }),
    })));

  const blockedFor = (res: RateLimiterRes | null, points: number): number | undefined =>
    res && res.consumedPoints >= points ? res.msBeforeNext / 1000 : undefined;

  return {
    /** Throws 429 when the account or the IP has no attempts left (failed ones, or any). Counts this attempt. */
    async check(account: string, ip: string): Promise<void> {
      if (!enabled) return;
      const { byAccount, byIp, attemptsByAccount, attemptsByIp } = await load();
      const [a, i] = await Promise.all([byAccount.get(account), byIp.get(ip)]);
      const wait = blockedFor(a, byAccount.points) ?? blockedFor(i, byIp.points);
      if (wait !== undefined) {
        throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
      }
      const [all, allIp] = await Promise.all([attemptsByAccount.penalty(account, 1), attemptsByIp.penalty(ip, 1)]);
      const busy = blockedFor(all, attemptsByAccount.points + 1) ?? blockedFor(allIp, attemptsByIp.points + 1);
      if (busy !== undefined) throw tooManyRequests(`Too many sign-ins. Try again in ${Math.ceil(busy)} seconds.`, busy);
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
