import type { RateLimiterMemory } from 'rate-limiter-flexible';

type LimiterModule = { RateLimiterMemory?: typeof RateLimiterMemory; default?: { RateLimiterMemory: typeof RateLimiterMemory } };

/**
 * RateLimiterMemory from a dynamic import of the CommonJS package: named under tsx/vitest, but
 * only on `default` when the bundled service loads it (Node cannot see the CJS names there).
 */
export function limiterClass(mod: LimiterModule): typeof RateLimiterMemory {
  const Limiter = mod.RateLimiterMemory ?? mod.default?.RateLimiterMemory;
  if (!Limiter) throw new Error('rate-limiter-flexible has no RateLimiterMemory export');
  return Limiter;
}
