import type { RateLimiterMemory } from 'rate-limiter-flexible';
import { loadExports } from '../platform/library-exports';
import { tooManyRequests } from '../platform/http/errors';

/** What a person's actions in channels cost, per rolling minute. */
export type ChannelAction = 'message' | 'reaction' | 'model' | 'upload';

/**
 * Per-person limits in channels (this instance's count): `perMinute` messages (posts and edits),
 * twice as many reactions and uploads, and a sixth as many model answers (at least one); 0 turns
 * limiting off. Over a limit: 429 with Retry-After.
 */
export function createChannelRateLimits(perMinute: number) {
  const points: Record<ChannelAction, number> = {
    message: perMinute,
    reaction: perMinute * 2,
    upload: perMinute * 2,
    model: Math.max(1, Math.floor(perMinute / 6)),
  };
  let limiters: Promise<Record<ChannelAction, RateLimiterMemory>> | undefined;
  const load = () =>
    (limiters ??= loadExports(import('rate-limiter-flexible'), 'rate-limiter-flexible', 'RateLimiterMemory').then(({ RateLimiterMemory: Limiter }) => {
      const make = (action: ChannelAction) => new Limiter({ keyPrefix: `channel-${action}`, points: points[action], duration: 60 });
      return { message: make('message'), reaction: make('reaction'), upload: make('upload'), model: make('model') };
    }));

  return {
    /** Counts one action of a person; throws 429 past the limit. */
    async consume(userId: string, action: ChannelAction): Promise<void> {
      if (perMinute <= 0) return;
      try {
        await (await load())[action].consume(userId, 1);
      } catch (rejection) {
        if (rejection instanceof Error) throw rejection;
        const wait = (rejection as { msBeforeNext: number }).msBeforeNext / 1000;
        throw tooManyRequests(`Too many ${action === 'model' ? 'model answers' : `${action}s`} in channels: at most ${points[action]} a minute. Try again in ${Math.ceil(wait)} seconds.`, wait);
      }
    },
  };
}
export type ChannelRateLimits = ReturnType<typeof createChannelRateLimits>;
