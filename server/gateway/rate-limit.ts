import type { RequestHandler } from 'express';
import type { RateLimiterMemory } from 'rate-limiter-flexible';
import { limiterClass } from '../platform/limiter-class';
import { authOf } from '../session';
import { tooManyRequests } from '../platform/http/errors';

/**
 * Per-key request limit of the /v1 API: `perMinute` requests per API key (a session counts as
 * its user's own key) per rolling minute; 0 turns it off. Over the limit: 429 with Retry-After.
 */
export function v1RateLimit(perMinute: number): RequestHandler {
  if (perMinute <= 0) return (_req, _res, next) => next();
  let limiter: Promise<RateLimiterMemory> | undefined;
  const load = () => (limiter ??= import('rate-limiter-flexible').then(limiterClass).then((Limiter) => new Limiter({ keyPrefix: 'v1', points: perMinute, duration: 60 })));
  return async (req, res, next) => {
    const auth = authOf(req);
    const key = `${auth.via}:${auth.user.id}`;
    try {
      const state = await (await load()).consume(key, 1);
      res.set('x-ratelimit-limit-requests', String(perMinute));
      res.set('x-ratelimit-remaining-requests', String(state.remainingPoints));
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const wait = (rejection as { msBeforeNext: number }).msBeforeNext / 1000;
      throw tooManyRequests(`Rate limit of ${perMinute} requests per minute reached. Try again in ${Math.ceil(wait)} seconds.`, wait);
    }
    next();
  };
}
