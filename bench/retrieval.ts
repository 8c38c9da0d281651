/**
 * Retrieval benchmark, every number measured side by side in one run:
 * - ingestion docs/s and chunks/s of 5 KB text files through the running service (offline
 *   embedder; files added one request after another, as the UI does);
 * - search p50/p99 at 10k and 100k chunks for full-text, vector and hybrid, against a plain
 *   Float32Array dot-product scan of the same vectors, and the same chunks in Orama 3;
 * - restore of a 100k-chunk base: the snapshot alone, and through the service after a restart
 *   (fingerprint query + read), next to a rebuild from SQLite and Orama's own save/load;
 * - nDCG@10 / recall@10 of full-text, vector, hybrid blend and reciprocal rank fusion on a BEIR
 *   set, ours and Orama's;
 * - chat completion latency (fake provider) with and without a large ingestion running.
 *
 *   npm run bench:retrieval -- --data ../shared/data/ir/msmarco-5k[,<more BEIR folders for quality>] [--only ingest,search,orama,restore,quality,threshold,chat]
 *
 * Environment: BENCH_DOCS (ingestion files, default 300), BENCH_ORAMA_100K=0 (skip loading 100k
 * chunks into Orama's built-in index: minutes and several GB), BENCH_CHATS (chats per phase, default 300),
 * BENCH_CHAT_FILES (files ingested during the chat phases, half queued first, half added meanwhile; default 3000).
 */
import os from 'node:os';
import path from 'node:path';
import { offlineEmbed } from '../server/retrieval/embedding/offline-embedder';
import { fmt, table } from './lib/report';
import { loadBeir } from './retrieval/beir';
import { chatPart } from './retrieval/chat';
import { benchData } from './retrieval/data';
import { ingestPart } from './retrieval/ingest';
import { qualityPart } from './retrieval/quality';
import { restorePart } from './retrieval/restore';
import { searchPart } from './retrieval/search';
import { thresholdPart } from './retrieval/threshold';

const args = process.argv.slice(2);
const dataArg = args[args.indexOf('--data') + 1];
if (!args.includes('--data') || !dataArg) {
  console.error('usage: bench/retrieval.ts --data <BEIR folder, e.g. ../shared/data/ir/msmarco-5k> [--only ingest,search,orama,restore,quality,threshold,chat]');
  process.exit(2);
}
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1]!.split(',')) : undefined;
const part = (name: string) => !only || only.has(name);
/** `--data a,b,…`: the first set feeds every part; quality is measured on each. */
const dataFolders = dataArg.split(',');
const set = loadBeir(path.resolve(dataFolders[0]!));

console.log(`Retrieval benchmark: ${set.corpus.length} passages, ${set.queries.length} queries from ${dataArg}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const embedStarted = performance.now();
const vectors = set.corpus.map((d) => offlineEmbed(d.text));
const embedMs = performance.now() - embedStarted;
table('Offline embedder', ['passages', 'ms', 'passages/s'], [[set.corpus.length, fmt(embedMs, 0), fmt(set.corpus.length / (embedMs / 1000), 0)]]);
const data = benchData(set, vectors);
if (part('ingest')) await ingestPart(data);
if (part('search') || part('orama')) await searchPart(data, part('orama'));
if (part('restore')) await restorePart(data);
if (part('quality')) await qualityPart(data, dataFolders, part('orama'));
if (part('threshold')) await thresholdPart(data, dataFolders);
if (part('chat')) await chatPart(data);
