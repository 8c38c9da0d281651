import type { Response } from 'express';
import type { RateLimiterMemory } from 'rate-limiter-flexible';
import { loadExports } from '../library-exports';
import { tooManyRequests } from './errors';
import type { RouteAuth } from './route';

/** Consumes one request of the caller's budget (the route's `authorize` step), or throws 429. */
export type RateLimit = (ctx: { auth: RouteAuth; res: Response }) => Promise<void>;

/**
 * Per-account request limit of the /v1 API and `/api/chat/completions`: `perMinute` requests per
 * account per rolling minute, one budget whether the account calls with its API key or a session
 * (separate budgets doubled it, and the UI's path had none); 0 turns it off. Over the limit: 429
 * with Retry-After. Make one and give it to every route it guards.
 */
export function accountRateLimit(perMinute: number): RateLimit {
  if (perMinute <= 0) return async () => undefined;
  let limiter: Promise<RateLimiterMemory> | undefined;
  const load = () => (limiter ??= loadExports(import('rate-limiter-flexible'), 'rate-limiter-flexible', 'RateLimiterMemory').then(({ RateLimiterMemory: Limiter }) => new Limiter({ keyPrefix: 'v1', points: perMinute, duration: 60 })));
  return async ({ auth, res }) => {
    const key = auth.user.id;
    try {
      const state = await (await load()).consume(key, 1);
      res.set('x-ratelimit-limit-requests', String(perMinute));
      res.set('x-ratelimit-remaining-requests', String(state.remainingPoints));
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const wait = (rejection as { msBeforeNext: number }).msBeforeNext / 1000;
      throw tooManyRequests(`Rate limit of ${perMinute} requests per minute reached. Try again in ${Math.ceil(wait)} seconds.`, wait);
    }
  };
}
