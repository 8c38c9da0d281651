/**
 * The several-instances part of `bench:load` (BENCH_LOAD_INSTANCES=2): a throwaway PostgreSQL
 * cluster, then the same load against (a) one service process on it and (b) two service
 * processes on the same database, each time behind the same round-robin proxy (one upstream,
 * then two), so the proxy hop is in both rows. The services are child processes (one event loop
 * each); the load clients and the fake provider stay in this process. Both instances share the
 * secret store (the second starts with a copy of the first's `secrets.enc` and the same
 * `PARLEY_SECRET_KEY`), as docs/operations.md's Several instances section requires.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccounts, percentileOf, runLoad, type LoadAccount, type LoadResult } from './load-users';
import { startChild, type StartedChild } from './process';
import { startRoundRobinProxy } from './round-robin-proxy';
import { addPhase, describeTtft, emptyPhase, ttftPhase } from './signin-burst';
import { createTestDatabase, startPostgresCluster } from '../../test/helpers/postgres';

/** One row of the comparison. */
export interface InstancesRow {
  name: string;
  result: LoadResult;
  seconds: number;
  ttft: { p50: number; p99: number; n: number; errors: number };
  /** Requests each instance received through the proxy. */
  spread: number[];
  /** One-minute load average of the machine before and after the row (it is shared: compare rows of one run). */
  load: [number, number];
}

const SERVER_CHILD = path.join(import.meta.dirname, 'server-child.ts');

async function post(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Chat TTFT p50/p99 of `chatters` users streaming for `seconds` through `url`. */
async function ttftOf(url: string, accounts: LoadAccount[], seconds: number, model: string): Promise<InstancesRow['ttft']> {
  const chatters = await Promise.all(
    accounts.map(async (account, i) => {
      const token = (await post(`${url}/api/v1/auths/signin`, account)).token as string;
      const chatId = (await post(`${url}/api/v1/chats/new`, { title: `ttft ${i}` }, token)).id as string;
      return { token, chatId };
    }),
  );
  const phase = emptyPhase();
  addPhase(phase, await ttftPhase(url, chatters, { seconds, model }));
  return { ...describeTtft(phase), n: phase.samples.length, errors: phase.errors.length };
}

/**
 * Runs the one-instance and two-instance rows. `providerUrl` is a running fake OpenAI-compatible
 * provider serving `model`.
 */
export async function runInstancesComparison(options: { users: number; seconds: number; ttftSeconds: number; chatters: number; providerUrl: string; model: string }): Promise<InstancesRow[]> {
  const cluster = await startPostgresCluster();
  const dirs: string[] = [];
  const children: StartedChild[] = [];
  try {
    const databaseUrl = await createTestDatabase(cluster.baseUrl, 'parley_bench_load');
    // Uploads and index snapshots in one folder both instances use, as an office would set it up.
    const sharedDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-shared-'));
    dirs.push(sharedDir);
    const env = {
      PARLEY_DATABASE_URL: databaseUrl,
      PARLEY_SHARED_DIR: sharedDir,
      PARLEY_SECRET_STORE: 'file',
      PARLEY_SECRET_KEY: randomBytes(32).toString('hex'),
      PARLEY_SIGNIN_RATE_LIMIT: '0',
      PARLEY_V1_RATE_LIMIT: '0',
      PARLEY_LOG_LEVEL: 'warn',
    };
    const newDir = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-instance-'));
      dirs.push(dir);
      return dir;
    };
    const startInstance = async (dataDir: string) => {
      const child = await startChild(['--import', 'tsx', SERVER_CHILD, dataDir], env);
      children.push(child);
      return child;
    };
    const dirA = newDir();
    const a = await startInstance(dirA);
    const adminToken = (await post(`${a.url}/api/v1/auths/signup`, { name: 'Admin', email: 'admin@example.com', password: 'admin-password' })).token as string;
    await post(`${a.url}/compat/config/update`, { COMPAT_API_BASE_URLS: [options.providerUrl], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} }, adminToken);
    const accounts = await createAccounts(a.url, adminToken, options.users);

    const rows: InstancesRow[] = [];
    const measure = async (name: string, upstreams: string[]) => {
      const proxy = await startRoundRobinProxy(upstreams);
      const loadBefore = os.loadavg()[0]!;
      try {
        const result = await runLoad(proxy.url, accounts, { seconds: options.seconds, model: options.model });
        const ttft = options.ttftSeconds > 0 ? await ttftOf(proxy.url, accounts.slice(0, options.chatters), options.ttftSeconds, options.model) : { p50: NaN, p99: NaN, n: 0, errors: 0 };
        rows.push({ name, result, seconds: options.seconds, ttft, spread: [...proxy.counts], load: [loadBefore, os.loadavg()[0]!] });
      } finally {
        await proxy.close();
      }
    };
    await measure('1 instance, PostgreSQL', [a.url]);
    // The second instance starts with the first's secret store (signing key, provider keys).
    const dirB = newDir();
    copyFileSync(path.join(dirA, 'secrets.enc'), path.join(dirB, 'secrets.enc'));
    const b = await startInstance(dirB);
    await measure('2 instances, same DB', [a.url, b.url]);
    return rows;
  } finally {
    for (const child of children) await child.stop();
    cluster.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** The comparison as table lines: latencies per operation, TTFT, throughput, errors and the load average around each row. */
export function describeInstancesRows(rows: InstancesRow[], bare: { p50: number; p99: number }): string[] {
  const ms = (v: number) => `${v.toFixed(1).padStart(7)}`;
  const lines = [
    `${'target'.padEnd(24)} ${'list p50/p99 ms'.padStart(18)} ${'stream p50/p99 ms'.padStart(18)} ${'upload p50/p99 ms'.padStart(18)} ${'TTFT p99'.padStart(9)} ${'req/s'.padStart(6)} errors  ${'load'.padEnd(9)}  spread`,
    `${'bare Express (control)'.padEnd(24)} ${`${ms(bare.p50)} /${ms(bare.p99)}`.padStart(18)}`,
  ];
  for (const row of rows) {
    const pair = (values: number[]) => `${ms(percentileOf(values, 50))} /${ms(percentileOf(values, 99))}`.padStart(18);
    const { latencies } = row.result;
    const errors = row.result.errors.length + row.ttft.errors;
    lines.push(
      `${row.name.padEnd(24)} ${pair(latencies.list)} ${pair(latencies.stream)} ${pair(latencies.upload)} ${ms(row.ttft.p99).padStart(9)} ${(row.result.requests / row.seconds).toFixed(0).padStart(6)} ${String(errors).padStart(6)}  ${`${row.load[0].toFixed(1)}–${row.load[1].toFixed(1)}`.padEnd(9)}  ${row.spread.join('/')}`,
    );
  }
  return lines;
}
