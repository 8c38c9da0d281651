import { spawn } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fmt, pct, table, type Rows } from '../lib/report';
import { startBench } from '../lib/start-bench';
import type { BenchData } from './data';

const CHATS = Number(process.env.BENCH_CHATS ?? 300);
const CHAT_FILES = Number(process.env.BENCH_CHAT_FILES ?? 3000);

function startFakeProvider(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'lib', 'fake-provider-child.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        child.removeAllListeners('exit');
        resolve({ url: match[1]!, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}

async function chatLatency(data: BenchData): Promise<Rows> {
  const fake = await startFakeProvider();
  const bench = await startBench({ env: { PARLEY_COMPAT_BASE_URL: fake.url, PARLEY_COMPAT_API_KEY: 'sk-bench' } });
  try {
    const tasks = (await (await fetch(`${bench.server.url}/api/v1/tasks/config`, { headers: { authorization: `Bearer ${bench.token}` } })).json()) as Record<string, unknown>;
    await bench.post('/api/v1/tasks/config/update', { ...tasks, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false });
    // One streamed completion (20 tokens) read to its end.
    const chat = async () => {
      const started = performance.now();
      const res = await fetch(`${bench.server.url}/api/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bench.token}` },
        body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'bench tokens=20' }] }),
      });
      const text = await res.text();
      if (!res.ok || !text.includes('[DONE]')) throw new Error(`chat failed: ${res.status} ${text.slice(0, 200)}`);
      return performance.now() - started;
    };
    const loopDelays: number[] = [];
    const phase = async () => {
      const samples: number[] = [];
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      for (let i = 0; i < CHATS; i += 1) samples.push(await chat());
      loop.disable();
      loopDelays.push(loop.percentile(99) / 1e6);
      return samples;
    };
    for (let i = 0; i < 50; i += 1) await chat();
    const ids = await bench.upload(data.documents(CHAT_FILES));
    const idle1 = await phase();
    // A large ingestion: files queued (added through the service, each answered at once), then
    // indexed in the background while the chats run.
    const base = await bench.post('/api/knowledge/create', { name: 'Big ingestion' });
    for (const id of ids.slice(0, CHAT_FILES / 2)) await bench.server.services.knowledge.service.addFile({ id: bench.userId, role: 'admin' }, base.id, id);
    const queued = await phase();
    const queuedChunks = (await bench.server.services.retrieval.repo.fingerprint(base.id)).count;
    const queuedRunning = (await bench.server.services.retrieval.repo.withStatus(['pending', 'processing'])).length > 0;
    await bench.server.services.retrieval.ingestion.idle();
    // The same while files keep being added over HTTP, one request after another (as the UI does).
    const base2 = await bench.post('/api/knowledge/create', { name: 'Big ingestion, added meanwhile' });
    let adding = true;
    let added = 0;
    const adder = (async () => {
      for (const id of ids.slice(CHAT_FILES / 2)) {
        if (!adding) break;
        await bench.post(`/api/knowledge/${base2.id}/file/add`, { file_id: id });
        added += 1;
      }
    })();
    while (added < 20) await new Promise((r) => setTimeout(r, 10));
    const busy = await phase();
    const addedDuring = added;
    const fingerprint = await bench.server.services.retrieval.repo.fingerprint(base2.id);
    const stillRunning = added < ids.length / 2 || (await bench.server.services.retrieval.repo.withStatus(['pending', 'processing'])).length > 0;
    adding = false;
    await adder;
    await bench.server.services.retrieval.ingestion.idle();
    const idle2 = await phase();
    const idle = [...idle1, ...idle2];
    const state = (running: boolean) => (running ? 'still running at the end' : 'finished while the chats ran');
    return [
      ['no ingestion (before + after)', idle.length, fmt(pct(idle, 0.5)), fmt(pct(idle, 0.99)), '1.00', fmt(Math.max(loopDelays[0]!, loopDelays[3]!), 1), ''],
      [`${CHAT_FILES / 2} files queued, indexing in the background`, queued.length, fmt(pct(queued, 0.5)), fmt(pct(queued, 0.99)), fmt(pct(queued, 0.99) / pct(idle, 0.99)), fmt(loopDelays[1]!, 1), `${queuedChunks} chunks stored by the end, ${state(queuedRunning)}`],
      ['files added over HTTP meanwhile', busy.length, fmt(pct(busy, 0.5)), fmt(pct(busy, 0.99)), fmt(pct(busy, 0.99) / pct(idle, 0.99)), fmt(loopDelays[2]!, 1), `${addedDuring} files added, ${fingerprint.count} chunks stored, ${state(stillRunning)}`],
    ];
  } finally {
    await bench.close();
    fake.stop();
  }
}


/** Part `chat`: streamed chat completions before, during and after a large ingestion. */
export async function chatPart(data: BenchData): Promise<void> {
  table(`Chat completions (fake provider, 20 streamed tokens, through the service), ms; target: p99 rising ≤ 25% during a large ingestion`, ['phase', 'chats', 'p50', 'p99', 'p99 ratio', 'event-loop delay p99', 'ingestion'], await chatLatency(data));
}
