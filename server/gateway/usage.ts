import type { ApiUsageReport } from '../contracts/api-usage';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { Usage } from '../providers';
import type { UsageRepo } from './usage.repo';

/** Records one /v1 request; never throws (usage must not fail an answer). */
export interface UsageRecorder {
  record(userId: string, model: string, usage: Usage | undefined): Promise<void>;
}

const dayOf = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);

/** Usage of the /v1 API per user, model and UTC day: recorded per request, reported to admins. */
export function createUsageService(deps: { repo: UsageRepo; clock: Clock; log: Logger }) {
  const { repo, clock, log } = deps;
  return {
    async record(userId: string, model: string, usage: Usage | undefined): Promise<void> {
      try {
        await repo.add({
          user_id: userId,
          model,
          day: dayOf(clock.nowMs()),
          requests: 1,
          prompt_tokens: usage?.prompt_tokens ?? 0,
          completion_tokens: usage?.completion_tokens ?? 0,
          total_tokens: usage?.total_tokens ?? 0,
        });
      } catch (error) {
        log.warn({ err: error }, 'recording /v1 usage failed');
      }
    },
    /** The last `days` days (today included), newest first. */
    async report(days: number): Promise<ApiUsageReport> {
      const since = dayOf(clock.nowMs() - (days - 1) * 86_400_000);
      const rows = await repo.since(since);
      return {
        since,
        rows: rows.map((r) => ({
          day: r.day,
          user_id: r.user_id,
          user_name: r.user_name ?? '',
          user_email: r.user_email ?? '',
          model: r.model,
          requests: r.requests,
          prompt_tokens: r.prompt_tokens,
          completion_tokens: r.completion_tokens,
          total_tokens: r.total_tokens,
        })),
      };
    },
  } satisfies UsageRecorder & Record<string, unknown>;
}
export type UsageService = ReturnType<typeof createUsageService>;
