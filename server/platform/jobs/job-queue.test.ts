import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../clock';
import { migrate, openDatabase, type Db } from '../db/knex';
import { createJobQueue, type JobQueue } from './job-queue';
import { createJobsRepo, type JobsRepo } from './jobs.repo';

const LEASE_MS = 60_000;

describe('the job queue (SQLite)', () => {
  let dir: string;
  let db: Db;
  let nowMs: number;
  const clock: Clock = { nowMs: () => nowMs, now: () => Math.floor(nowMs / 1000) };
  const queues: JobQueue[] = [];
  const queue = (owner: string, options: { repo?: JobsRepo; pruneEveryMs?: number } = {}) => {
    const q = createJobQueue({ repo: options.repo ?? createJobsRepo(db), owner, leaseMs: LEASE_MS, poll: false, clock, log: pino({ level: 'silent' }), pruneEveryMs: options.pruneEveryMs });
    queues.push(q);
    return q;
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-jobs-'));
    db = openDatabase(dir);
    await migrate(db);
    nowMs = 1_800_000_000_000;
  });

  afterEach(async () => {
    for (const q of queues.splice(0)) q.abandon();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('claims several queued jobs at once, highest priority then oldest first, and never hands out a claimed one twice', async () => {
    const a = queue('a');
    for (const key of ['one', 'two', 'three']) await a.enqueue('ingest', key, { key });
    await a.enqueue('ingest', 'urgent', {}, { priority: 1 });
    await a.enqueue('graph', 'other-kind', {});
    const first = await a.claim('ingest', 3);
    expect(first.map((j) => j.key)).toEqual(['urgent', 'one', 'two']);
    expect(JSON.parse(first[1]!.payload)).toEqual({ key: 'one' });
    expect(first.every((j) => j.runs === 1)).toBe(true);
    expect((await a.claim('ingest', 10)).map((j) => j.key)).toEqual(['three']);
    expect(await a.claim('ingest', 10)).toEqual([]);
  });

  it('enqueues once per key: a queued or running job is not doubled, a finished one runs again', async () => {
    const a = queue('a');
    await a.enqueue('ingest', 'file', {});
    await a.enqueue('ingest', 'file', {});
    const [job] = await a.claim('ingest', 10);
    expect(job).toBeDefined();
    await a.enqueue('ingest', 'file', {});
    expect(await a.claim('ingest', 10)).toEqual([]);
    await a.complete([job!]);
    expect((await createJobsRepo(db).find('ingest', 'file'))?.status).toBe('done');
    expect(await a.unfinished('ingest', ['file'])).toEqual(new Set());
    await a.enqueue('ingest', 'file', {});
    expect(await a.unfinished('ingest', ['file'])).toEqual(new Set(['file']));
    // Its runs count afresh: the run before finished.
    expect((await a.claim('ingest', 10)).map((j) => j.runs)).toEqual([1]);
  });

  it('counts the claims of a job that never finished, but not claims handed back unfinished', async () => {
    const a = queue('a');
    await a.enqueue('ingest', 'file', {});
    await a.release(await a.claim('ingest', 1));
    expect((await a.claim('ingest', 1)).map((j) => j.runs)).toEqual([1]);
    // Its owner died with it: the next claim (after the lease) is its second run.
    a.abandon();
    nowMs += LEASE_MS + 1;
    expect((await queue('b').claim('ingest', 1)).map((j) => j.runs)).toEqual([2]);
  });

  it('runs a job once more when it was enqueued again with new work while running', async () => {
    const a = queue('a');
    await a.enqueue('graph', 'base', {});
    const [run] = await a.claim('graph', 1);
    await a.enqueue('graph', 'base', {}, { again: true });
    await a.complete([run!]);
    const [rerun] = await a.claim('graph', 1);
    expect(rerun?.key).toBe('base');
    await a.complete([rerun!]);
    expect(await a.claim('graph', 1)).toEqual([]);
  });

  it('gives concurrent claimers disjoint jobs', async () => {
    const a = queue('a');
    const b = queue('b');
    for (let i = 0; i < 40; i += 1) await a.enqueue('ingest', `file-${i}`, {});
    const rounds = await Promise.all([a.claim('ingest', 7), b.claim('ingest', 7), a.claim('ingest', 7), b.claim('ingest', 7), a.claim('ingest', 7), b.claim('ingest', 7)]);
    const keys = rounds.flat().map((j) => j.key);
    expect(keys).toHaveLength(40);
    expect(new Set(keys).size).toBe(40);
  });

  it('hands a job whose lease ran out to another instance, and the late owner can no longer complete it', async () => {
    const a = queue('a');
    const b = queue('b');
    await a.enqueue('reembed', 'all', {});
    const [taken] = await a.claim('reembed', 1);
    expect(await b.claim('reembed', 1)).toEqual([]);
    nowMs += LEASE_MS + 1;
    const [takenOver] = await b.claim('reembed', 1);
    expect(takenOver).toMatchObject({ key: 'all', runs: 2 });
    await a.complete([taken!]);
    expect(await createJobsRepo(db).find('reembed', 'all')).toMatchObject({ status: 'running', owner: 'b' });
    await b.complete([takenOver!]);
    expect((await createJobsRepo(db).find('reembed', 'all'))?.status).toBe('done');
  });

  it('keeps a renewed lease, records a failure with its reason, and hands jobs back on close', async () => {
    const repo = createJobsRepo(db);
    const a = queue('a');
    await a.enqueue('ingest', 'held', {});
    await a.enqueue('ingest', 'broken', {});
    const [held, broken] = await a.claim('ingest', 2);
    nowMs += LEASE_MS - 1;
    expect(await repo.renew('a', [held!.id], nowMs + LEASE_MS)).toEqual(new Set([held!.id]));
    nowMs += 2;
    expect((await queue('b').claim('ingest', 5)).map((j) => j.key)).toEqual(['broken']);
    await a.fail(broken!, 'cannot be read');
    expect(await repo.find('ingest', 'broken')).toMatchObject({ status: 'running', owner: 'b' });
    await a.close();
    expect(await repo.find('ingest', 'held')).toMatchObject({ status: 'queued', owner: null });
  });

  it('queues jobs a crashed run left running again at start when no other instance can exist', async () => {
    const crashed = queue('crashed');
    await crashed.enqueue('ingest', 'file', {});
    await crashed.claim('ingest', 1);
    crashed.abandon();
    const restarted = queue('restarted');
    await restarted.recover({ alone: true });
    expect((await restarted.claim('ingest', 1)).map((j) => j.key)).toEqual(['file']);
  });

  it('wakes the runners of a kind after a local enqueue and a completion that requeues', async () => {
    const a = queue('a');
    let woken = 0;
    const stop = a.watch('ingest', () => (woken += 1));
    await a.enqueue('ingest', 'file', {});
    expect(woken).toBe(1);
    stop();
    await a.enqueue('ingest', 'other', {});
    expect(woken).toBe(1);
  });

  it('writes a running job\'s progress a few times a second at most, always the last report, for every instance to read', async () => {
    const repo = createJobsRepo(db);
    let writes = 0;
    const counted: JobsRepo = { ...repo, setProgress: (...args) => ((writes += 1), repo.setProgress(...args)) };
    const a = queue('a', { repo: counted });
    const b = queue('b');
    await a.enqueue('reembed', 'all', {});
    expect(await b.state('reembed', 'all')).toMatchObject({ status: 'queued', live: false, progress: undefined });
    const [job] = await a.claim('reembed', 1);
    for (let done = 1; done <= 100; done += 1) a.progress(job!, { done, total: 100 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await b.state('reembed', 'all')).toMatchObject({ status: 'running', live: true, progress: { done: 1, total: 100 } });
    await a.complete([job!]);
    expect(writes).toBe(2);
    expect(await b.state('reembed', 'all')).toMatchObject({ status: 'done', live: false, progress: { done: 100, total: 100 } });
    // Queued again, the last run's progress no longer shows.
    await a.enqueue('reembed', 'all', {});
    expect((await b.state('reembed', 'all'))?.progress).toBeUndefined();
  });

  it('records work an instance holds itself as running while its lease is renewed, and as dead once it is not', async () => {
    const a = queue('a');
    const b = queue('b');
    const held = await a.hold('reindex', 'base', {}, 0);
    expect(await b.state('reindex', 'base')).toMatchObject({ status: 'running', live: true, progress: 0 });
    a.progress(held, 0.5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await b.state('reindex', 'base'))?.progress).toBe(0.5);
    // Nobody else takes it while it is held.
    expect(await b.claim('reindex', 1)).toEqual([]);
    a.abandon();
    nowMs += LEASE_MS + 1;
    expect(await b.state('reindex', 'base')).toMatchObject({ status: 'running', live: false });
    // Held again later (the next language change): running afresh.
    const again = await b.hold('reindex', 'base', {}, 0);
    expect(again.runs).toBe(2);
    await b.complete([again]);
    expect((await b.state('reindex', 'base'))?.status).toBe('done');
  });

  it('prunes finished jobs older than a week while running, not only at start', async () => {
    const repo = createJobsRepo(db);
    const a = queue('a', { pruneEveryMs: 20 });
    await a.enqueue('ingest', 'old', {});
    await a.enqueue('ingest', 'recent', {});
    await a.enqueue('ingest', 'waiting', {});
    const [old] = await a.claim('ingest', 1);
    await a.complete([old!]);
    nowMs += 6 * 24 * 3600_000;
    const [recent] = await a.claim('ingest', 1);
    await a.complete([recent!]);
    nowMs += 2 * 24 * 3600_000;
    const deadline = Date.now() + 5_000;
    while ((await repo.find('ingest', 'old')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await repo.find('ingest', 'old')).toBeUndefined();
    expect((await repo.find('ingest', 'recent'))?.status).toBe('done');
    expect((await repo.find('ingest', 'waiting'))?.status).toBe('queued');
  });
});
