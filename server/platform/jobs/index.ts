import type { Clock } from '../clock';
import type { Db } from '../db/knex';
import type { Logger } from '../log';
import { createJobQueue } from './job-queue';
import { createJobsRepo } from './jobs.repo';

export { createJobQueue, type JobQueue, type ClaimedJob, type EnqueueOptions, type JobState } from './job-queue';
export { createJobsRepo, type JobsRepo, type JobRow } from './jobs.repo';

/** The job queue of a database, for the instance named `owner`. */
export function createJobs(deps: { db: Db; owner: string; leaseMs: number; poll: boolean; clock: Clock; log: Logger }) {
  return createJobQueue({ repo: createJobsRepo(deps.db), owner: deps.owner, leaseMs: deps.leaseMs, poll: deps.poll, clock: deps.clock, log: deps.log });
}
