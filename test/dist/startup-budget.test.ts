import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, startBuiltService } from './built-service';

/**
 * What the built service loads and keeps at start-up (issue 37, docs/performance.md "Start-up"):
 * heavy libraries load on their first use, and idle memory stays within a ratio of a bare Express
 * app started the same way in the same test. Ratios of one run, not absolute times: CI load
 * slows both sides alike, and RSS does not depend on how busy the machine is.
 */

/** Libraries that must not load before a request needs them. */
const LOADED_ON_FIRST_USE = [
  // native or WebAssembly runtimes
  'node-llama-cpp', '@node-llama-cpp', 'pyodide', '@fugood/whisper.node', 'keytar', '@napi-rs/canvas', 'canvas',
  // web pages and documents
  'jsdom', 'linkedom', '@mozilla/readability', 'cheerio', 'parse5', 'htmlparser2', 'pdfjs-dist', 'pdf-parse', 'mammoth',
  // audio decoders, model files, tokenizers, NLP
  'ogg-opus-decoder', 'mpg123-decoder', '@wasm-audio-decoders/flac', '@huggingface/gguf', '@huggingface/tasks', 'js-tiktoken', 'compromise',
  // provider and tool clients, certificates, archives, QR codes, magic bytes
  'openai', 'ollama', 'undici', '@modelcontextprotocol/sdk', 'selfsigned', '@peculiar/x509', 'yazl', 'yauzl', 'qrcode', 'file-type',
  // PostgreSQL (a SQLite install never needs it)
  'pg', 'pg-types', '@socket.io/postgres-adapter',
  // UI-only libraries must never reach the service
  'mermaid', 'swagger-ui-dist', 'three', 'react',
];

/**
 * RSS 1.5 s after the first /health over a bare Express app's. Issue 37's budget, 1.8× and 100 MB
 * once the service has settled, is bench:startup's to check (82 MB, 1.54× on 2026-11-28, see
 * docs/performance.md). Here, before it settles and beside other test files, the service measures
 * 92–102 MB, 1.62–1.78×: this ceiling fails CI on growth beyond that spread. Lower it as RSS comes down.
 */
const RSS_RATIO_CEILING = 2.0;
const RSS_CEILING_MB = 115;

/** The package a file belongs to (`@scope/name` or `name`), from its path under node_modules. */
function packageOf(file: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
}

/** Every package a loaded file is or holds: a built chunk's packages come from its source map. */
function packagesOf(files: string[]): Set<string> {
  const packages = new Set<string>();
  for (const file of files) {
    const own = packageOf(file);
    if (own) packages.add(own);
    if (!file.startsWith(path.join(ROOT, 'dist')) || !existsSync(`${file}.map`)) continue;
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      const bundled = packageOf(source);
      if (bundled) packages.add(bundled);
    }
  }
  return packages;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

/** The bare Express control of bench:startup, started the same way; its idle RSS in MB. */
async function bareExpressRss(idleMs: number): Promise<number> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/lib/bare-express.mjs')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.once('exit', (code) => reject(new Error(`the bare Express app exited (${code})`)));
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /listening on (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
    });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, idleMs));
    return rssMb(child.pid as number);
  } finally {
    child.kill('SIGTERM');
    await gone;
  }
}

const IDLE_MS = 1_500;

describe('the built service at start-up', () => {
  it('loads no heavy library before a request needs it', async () => {
    const log = path.join(os.tmpdir(), `parley-modules-${process.pid}-${Date.now()}.txt`);
    const preload = pathToFileURL(path.join(ROOT, 'test/fixtures/module-log/preload.mjs')).href;
    const service = await startBuiltService({ env: { NODE_OPTIONS: `--import ${preload}`, PARLEY_MODULE_LOG: log } });
    try {
      expect((await service.anon.get('/health')).status).toBe(200);
      // The first page a person opens signs them up and lists their chats: still nothing heavy.
      const signup = await service.anon.post('/api/v1/auths/signup', { name: 'Ada', email: 'ada@example.com', password: 'a-long-password' });
      expect(signup.status).toBe(200);
      expect((await service.as(signup.body.token as string).get('/api/v1/chats/')).status).toBe(200);
    } finally {
      await service.close();
    }
    const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => (line.startsWith('file:') ? new URL(line).pathname : line));
    rmSync(log, { force: true });
    const packages = packagesOf(files);
    // The log is complete: the service's own chunks and its always-needed libraries are in it.
    expect(files.some((f) => f.endsWith(path.join('dist', 'server', 'cli.js')))).toBe(true);
    for (const needed of ['express', 'knex', 'sqlite3', 'socket.io', 'zod']) expect(packages, needed).toContain(needed);
    expect(LOADED_ON_FIRST_USE.filter((heavy) => packages.has(heavy))).toEqual([]);
  }, 120_000);

  it(`idles within ${RSS_CEILING_MB} MB and ${RSS_RATIO_CEILING}× a bare Express app's RSS`, async () => {
    const bare = await bareExpressRss(IDLE_MS);
    const service = await startBuiltService();
    let parley: number;
    try {
      expect((await service.anon.get('/health')).status).toBe(200);
      await new Promise((r) => setTimeout(r, IDLE_MS));
      parley = rssMb(service.child.pid as number);
    } finally {
      await service.close();
    }
    const seen = `Parley ${parley.toFixed(1)} MB, bare Express ${bare.toFixed(1)} MB (${(parley / bare).toFixed(2)}×)`;
    expect(parley, seen).toBeLessThanOrEqual(RSS_CEILING_MB);
    expect(parley / bare, seen).toBeLessThanOrEqual(RSS_RATIO_CEILING);
  }, 120_000);
});
