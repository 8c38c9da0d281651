import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../clock';
import { migrate, openDatabase, type Db } from '../db/knex';
import { createJobQueue, type JobQueue } from './job-queue';
import { createJobsRepo } from './jobs.repo';

const LEASE_MS = 60_000;

describe('the job queue (SQLite)', () => {
  let dir: string;
  let db: Db;
  let nowMs: number;
  const clock: Clock = { nowMs: () => nowMs, now: () => Math.floor(nowMs / 1000) };
  const queues: JobQueue[] = [];
  const queue = (owner: string) => {
    const q = createJobQueue({ repo: createJobsRepo(db), owner, leaseMs: LEASE_MS, poll: false, clock, log: pino({ level: 'silent' }) });
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
    expect((await a.claim('ingest', 10)).map((j) => j.runs)).toEqual([2]);
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
});
