/**
 * Knowledge graph benchmark, measured side by side in one run:
 * - offline extraction (compromise) in-process, chunks/s: the ceiling;
 * - a whole graph build through the running service (worker thread, storage, progress), chunks/s,
 *   and its ratio to that ceiling and to the ingestion of the same files;
 * - search latency with the graph signal against the same search with the graph off.
 *
 *   npm run bench:graph            (BENCH_GRAPH_DOCS=40 documents of ≈ 5 KB)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractOffline } from '../server/graph/extract/offline';
import { memorySecretStore } from '../server/secrets';
import { startServer } from '../server/start';

const DOCS = Number(process.env.BENCH_GRAPH_DOCS ?? 40);
const QUERIES = 60;
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const fmt = (n: number, digits = 1) => n.toFixed(digits);

const FIRST = ['Ingrid', 'Tomas', 'Lena', 'Nadia', 'Omar', 'Sofia', 'Pavel', 'Amara', 'Jonas', 'Keiko', 'Maria', 'David'];
const LAST = ['Holm', 'Berg', 'Dahl', 'Okafor', 'Haddad', 'Rossi', 'Novak', 'Mensah', 'Lindqvist', 'Tanaka', 'Garcia', 'Cohen'];
const PLACES = ['Bergen', 'Oslo', 'Tromsø', 'Lisbon', 'Nairobi', 'Kyoto', 'Prague', 'Accra', 'Montreal', 'Lima', 'Hanoi', 'Dublin'];
const ORGS = ['Polar Institute', 'Nordic Space Agency', 'Acme Corporation', 'Blue Harbour Trust', 'Meridian Labs', 'Bank of England', 'Red Cross'];

/** A ≈ 5 KB report naming people, places and organisations, like meeting notes or news. */
function report(seed: number): string {
  const out: string[] = [];
  for (let i = 0; out.join('\n\n').length < 5000; i += 1) {
    const n = seed * 131 + i * 17;
    const a = `${FIRST[n % 12]} ${LAST[(n * 5) % 12]}`;
    const b = `${FIRST[(n + 5) % 12]} ${LAST[(n * 7 + 3) % 12]}`;
    out.push(
      `In ${PLACES[n % 12]}, ${a} presented the quarterly figures of the ${ORGS[n % 7]} to ${b}. The discussion covered delayed shipments, ` +
        `the new office in ${PLACES[(n + 3) % 12]} and a partnership with the ${ORGS[(n + 2) % 7]}. ${b} asked for a written summary before the next board meeting.`,
    );
  }
  return out.join('\n\n');
}

async function main(): Promise<void> {
  const texts = Array.from({ length: DOCS }, (_, i) => report(i + 1));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-graph-'));
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', logToStdout: false, secrets: memorySecretStore(), rendererDir: path.join(dataDir, 'none'), env: { PARLEY_SIGNUP_RATE_LIMIT: '0' } });
  try {
    const call = async (method: string, p: string, body?: unknown, token?: string) =>
      (await fetch(`${server.url}${p}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<any>;
    const admin = await call('POST', '/api/v1/auths/signup', { name: 'Bench', email: 'bench@example.com', password: 'bench-password' });
    const base = await call('POST', '/api/knowledge/create', { name: 'Bench' }, admin.token);

    // Ingestion of the same files, for scale.
    const ingestStart = performance.now();
    for (let i = 0; i < texts.length; i += 1) {
      const form = new FormData();
      form.append('files', new Blob([texts[i]!]), `report-${i}.txt`);
      const [file] = (await (await fetch(`${server.url}/api/v1/chats/attachment/upload`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form })).json()) as Array<{ id: string }>;
      await call('POST', `/api/knowledge/${base.id}/file/add`, { file_id: file!.id }, admin.token);
    }
    await server.services.retrieval.ingestion.idle();
    const ingestMs = performance.now() - ingestStart;
    const chunks = (await server.services.db('chunks').where({ collection_id: base.id }).select<Array<{ text: string }>>('text')).map((c) => c.text);

    // The whole build through the service.
    const buildStart = performance.now();
    await call('POST', `/api/knowledge/${base.id}/graph/toggle`, { enabled: true }, admin.token);
    let status: any;
    for (;;) {
      status = await call('GET', `/api/v1/knowledge/${base.id}/graph/status`, undefined, admin.token);
      if (status.status !== 'building') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const buildMs = performance.now() - buildStart;
    if (status.status !== 'ready') throw new Error(`graph build ended ${JSON.stringify(status)}`);

    // Search with the graph signal, then the same searches with the graph off.
    const names = [...new Set(chunks.join(' ').match(/\b[A-Z][a-z]+ [A-Z][a-z]+\b/g) ?? [])].slice(0, QUERIES);
    const queries = names.map((n, i) => (i % 2 ? `Who works with ${n}?` : `What did ${n} present?`));
    const search = async () => {
      const times: number[] = [];
      for (const q of [...queries, ...queries]) {
        const t = performance.now();
        await server.services.retrieval.service.search([base.id], q, { noRerank: true });
        times.push(performance.now() - t);
      }
      return times.slice(queries.length); // second pass: warm
    };
    const withGraph = await search();
    await call('POST', `/api/knowledge/${base.id}/graph/toggle`, { enabled: false }, admin.token);
    const plain = await search();

    // The ceiling: the extractor alone, in this process (after loading compromise). Run after the
    // service's work: it blocks this event loop, which would trip the service's keep-alive timers.
    await extractOffline(['Warm-up: Ingrid Holm visited Oslo.']);
    const rawStart = performance.now();
    for (let i = 0; i < chunks.length; i += 24) await extractOffline(chunks.slice(i, i + 24));
    const rawMs = performance.now() - rawStart;

    const rawRate = (chunks.length / rawMs) * 1000;
    const buildRate = (chunks.length / buildMs) * 1000;
    console.log(`\nKnowledge graph, ${DOCS} documents, ${chunks.length} chunks, ${status.entities} entities, ${status.relations} relations`);
    console.log(`offline extractor in-process   ${fmt(rawRate)} chunks/s`);
    console.log(`graph build through service    ${fmt(buildRate)} chunks/s   (${fmt(buildRate / rawRate, 2)}× the extractor alone)`);
    console.log(`ingestion of the same files    ${fmt((chunks.length / ingestMs) * 1000)} chunks/s   (graph build takes ${fmt(buildMs / ingestMs, 2)}× ingestion time)`);
    console.log(`search p50 / p99, graph on     ${fmt(pct(withGraph, 0.5), 2)} / ${fmt(pct(withGraph, 0.99), 2)} ms`);
    console.log(`search p50 / p99, graph off    ${fmt(pct(plain, 0.5), 2)} / ${fmt(pct(plain, 0.99), 2)} ms   (graph signal costs ${fmt(pct(withGraph, 0.5) / pct(plain, 0.5), 2)}× at p50)`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
