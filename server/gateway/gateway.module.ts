import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import type { Logger } from '../platform/log';
import { createUsageRepo } from './usage.repo';
import { createUsageService } from './usage';

/** The OpenAI-compatible gateway's state: usage per user, model and day. */
export function createGateway(deps: { db: Db; clock: Clock; log: Logger }) {
  return { usage: createUsageService({ repo: createUsageRepo(deps.db), clock: deps.clock, log: deps.log }) };
}
export type Gateway = ReturnType<typeof createGateway>;
