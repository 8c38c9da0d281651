import type { Knex } from 'knex';
import { dialectOf, type Db } from '../db/knex';

/** A job as its runner sees it once claimed. */
export interface ClaimedJob {
  id: number;
  kind: string;
  key: string;
  payload: string;
  /**
   * Times it was claimed since it was last queued after finishing, this claim included (above 1:
   * an earlier run did not finish — its instance stopped or died). A claim handed back unfinished
   * ({@link release}) does not count.
   */
  runs: number;
}

/** A job's row. */
export interface JobRow extends ClaimedJob {
  status: 'queued' | 'running' | 'done' | 'failed';
  priority: number;
  owner: string | null;
  lease_until: number | null;
  again: number;
  error: string | null;
  /** JSON progress its runner reported (null before the first report, reset when claimed or queued again). */
  progress: string | null;
  created_at: number;
  updated_at: number;
}

/** Ids per statement (SQLite allows 999 bound values; PostgreSQL far more). */
const IN_SLICE = 500;

function* slices<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * The `jobs` table. Every state change is one statement, so it holds on both engines without
 * explicit transactions: a claim is one `UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING`
 * (SQLite runs statements one at a time; on PostgreSQL the inner SELECT skips rows another
 * instance has locked, and the outer WHERE re-checks each row after any wait).
 */
export function createJobsRepo(db: Db) {
  const postgres = dialectOf(db) === 'postgres';
  /** Queued, or running under a lease that ran out. */
  const claimable = (q: Knex.QueryBuilder, nowMs: number) => q.where('status', 'queued').orWhere((r) => r.where('status', 'running').where('lease_until', '<', nowMs));

  return {
    /**
     * Adds a job, or wakes the existing one of the same kind and key: a finished one is queued
     * again, a queued one keeps its place, a running one runs once more afterwards when `again`.
     */
    async enqueue(job: { kind: string; key: string; payload: string; priority: number; again: boolean }, now: number): Promise<void> {
      await db('jobs')
        .insert({ kind: job.kind, key: job.key, payload: job.payload, status: 'queued', priority: job.priority, runs: 0, again: 0, created_at: now, updated_at: now })
        .onConflict(['kind', 'key'])
        .merge({
          payload: db.raw('excluded.payload'),
          priority: db.raw('excluded.priority'),
          status: db.raw("CASE WHEN jobs.status = 'running' THEN jobs.status ELSE 'queued' END"),
          runs: db.raw("CASE WHEN jobs.status IN ('done', 'failed') THEN 0 ELSE jobs.runs END"),
          again: db.raw("CASE WHEN jobs.status <> 'running' THEN 0 WHEN ? = 1 THEN 1 ELSE jobs.again END", [job.again ? 1 : 0]),
          error: db.raw("CASE WHEN jobs.status = 'running' THEN jobs.error ELSE NULL END"),
          progress: db.raw("CASE WHEN jobs.status = 'running' THEN jobs.progress ELSE NULL END"),
          updated_at: now,
        });
    },

    /** Takes up to `limit` claimable jobs of these kinds for `owner` until `leaseUntil` (highest priority, then oldest, first). */
    async claim(kinds: readonly string[], owner: string, limit: number, nowMs: number, leaseUntil: number, now: number): Promise<ClaimedJob[]> {
      const candidates = db('jobs')
        .select('id')
        .whereIn('kind', [...kinds])
        .where((q) => claimable(q, nowMs))
        .orderBy([{ column: 'priority', order: 'desc' }, { column: 'id' }])
        .limit(limit);
      if (postgres) void candidates.forUpdate().skipLocked();
      const rows = await db('jobs')
        .whereIn('id', candidates)
        .where((q) => claimable(q, nowMs))
        .update({ status: 'running', owner, lease_until: leaseUntil, runs: db.raw('runs + 1'), again: 0, progress: null, updated_at: now })
        .returning<Array<ClaimedJob & { priority: number }>>(['id', 'kind', 'key', 'payload', 'runs', 'priority']);
      return rows.sort((a, b) => b.priority - a.priority || a.id - b.id).map(({ priority: _priority, ...job }) => job);
    },

    /**
     * Records work `owner` does itself now (no other instance is to run it): the job of this kind
     * and key becomes running under the owner's lease, whatever its state was.
     */
    async hold(job: { kind: string; key: string; payload: string; progress: string | null }, owner: string, leaseUntil: number, now: number): Promise<ClaimedJob> {
      const { progress } = job;
      const [row] = await db('jobs')
        .insert({ kind: job.kind, key: job.key, payload: job.payload, status: 'running', priority: 0, owner, lease_until: leaseUntil, runs: 1, again: 0, progress, created_at: now, updated_at: now })
        .onConflict(['kind', 'key'])
        .merge({ payload: job.payload, status: 'running', owner, lease_until: leaseUntil, runs: db.raw('jobs.runs + 1'), again: 0, error: null, progress, updated_at: now })
        .returning<ClaimedJob[]>(['id', 'kind', 'key', 'payload', 'runs']);
      return row!;
    },

    /** Stores the progress of one of the owner's running jobs. */
    async setProgress(owner: string, id: number, progress: string): Promise<void> {
      await db('jobs').where({ id, owner, status: 'running' }).update({ progress });
    },

    /** Extends the owner's lease on these jobs; answers the ids it still holds. */
    async renew(owner: string, ids: readonly number[], leaseUntil: number): Promise<Set<number>> {
      const held = new Set<number>();
      for (const part of slices(ids, IN_SLICE)) {
        const rows = await db('jobs').whereIn('id', part).where({ owner, status: 'running' }).update({ lease_until: leaseUntil }).returning<Array<{ id: number }>>('id');
        for (const r of rows) held.add(r.id);
      }
      return held;
    },

    /** Marks the owner's jobs done (or queued again when they were enqueued again meanwhile). */
    async complete(owner: string, ids: readonly number[], now: number): Promise<void> {
      for (const part of slices(ids, IN_SLICE)) {
        await db('jobs')
          .whereIn('id', part)
          .where({ owner, status: 'running' })
          .update({ status: db.raw("CASE WHEN again = 1 THEN 'queued' ELSE 'done' END"), again: 0, owner: null, lease_until: null, error: null, updated_at: now });
      }
    },

    /** Marks one of the owner's jobs failed with the reason. */
    async fail(owner: string, id: number, reason: string, now: number): Promise<void> {
      await db('jobs').where({ id, owner, status: 'running' }).update({ status: 'failed', error: reason, again: 0, owner: null, lease_until: null, updated_at: now });
    },

    /** Hands the owner's jobs (these, or all) back to the queue unfinished. */
    async release(owner: string, ids: readonly number[] | undefined, now: number): Promise<void> {
      const back = { status: 'queued', owner: null, lease_until: null, runs: db.raw('CASE WHEN runs > 0 THEN runs - 1 ELSE 0 END'), updated_at: now };
      if (!ids) {
        await db('jobs').where({ owner, status: 'running' }).update(back);
        return;
      }
      for (const part of slices(ids, IN_SLICE)) await db('jobs').whereIn('id', part).where({ owner, status: 'running' }).update(back);
    },

    /** Queues every running job again, whoever ran it (only where no other instance can be running: one SQLite data dir). */
    async requeueRunning(now: number): Promise<number> {
      return db('jobs').where({ status: 'running' }).update({ status: 'queued', owner: null, lease_until: null, updated_at: now });
    },

    /** Removes a job (its work is no longer wanted); a run in progress finds nothing to complete. */
    async cancel(kind: string, key: string): Promise<void> {
      await db('jobs').where({ kind, key }).delete();
    },

    /** Of these keys, those with a job queued or running. */
    async unfinished(kind: string, keys: readonly string[]): Promise<Set<string>> {
      const out = new Set<string>();
      for (const part of slices(keys, IN_SLICE)) {
        const rows = await db('jobs').where({ kind }).whereIn('key', part).whereIn('status', ['queued', 'running']).select<Array<{ key: string }>>('key');
        for (const r of rows) out.add(r.key);
      }
      return out;
    },

    /** Kinds with a job some instance may claim now. */
    async claimableKinds(nowMs: number): Promise<string[]> {
      const rows = await db('jobs').distinct('kind').where((q) => claimable(q, nowMs)).select<Array<{ kind: string }>>();
      return rows.map((r) => r.kind);
    },

    /** A job's row (tests, diagnostics). */
    async find(kind: string, key: string): Promise<JobRow | undefined> {
      return db<JobRow>('jobs').where({ kind, key }).first();
    },

    /** Forgets finished jobs last changed before `before` (epoch seconds). */
    async prune(before: number): Promise<number> {
      return db('jobs').whereIn('status', ['done', 'failed']).where('updated_at', '<', before).delete();
    },
  };
}
export type JobsRepo = ReturnType<typeof createJobsRepo>;
