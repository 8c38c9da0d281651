import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { memorySecretStore } from '../../server/secrets';
import { startServer, type RunningServer } from '../../server/start';

/** A running service with one signed-in admin, and helpers to call it. */
export interface Bench {
  server: RunningServer;
  dataDir: string;
  token: string;
  userId: string;
  post(p: string, body: unknown): Promise<any>;
  upload(texts: string[], perRequest?: number): Promise<string[]>;
  close(keep?: boolean): Promise<void>;
}

/** Starts a service in a fresh data dir (or `dataDir`) and signs up (or, with `signup: false`, in) its admin. */
export async function startBench(options: { dataDir?: string; env?: Record<string, string>; signup?: boolean } = {}): Promise<Bench> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'parley-bench-retrieval-'));
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', logToStdout: false, secrets: memorySecretStore(), rendererDir: path.join(dataDir, 'none'), env: { PARLEY_SIGNUP_RATE_LIMIT: '0', PARLEY_V1_RATE_LIMIT: '0', ...options.env } });
  let token = '';
  const post = async (p: string, body: unknown) =>
    (await fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json() as Promise<any>;
  const credentials = { name: 'Bench', email: 'bench@example.com', password: 'bench-password' };
  const session = options.signup === false ? await post('/api/v1/auths/signin', credentials) : await post('/api/v1/auths/signup', credentials);
  token = session.token as string;
  return {
    server,
    dataDir,
    token,
    userId: session.id as string,
    post,
    async upload(texts, perRequest = 20) {
      const ids: string[] = [];
      for (let i = 0; i < texts.length; i += perRequest) {
        const form = new FormData();
        texts.slice(i, i + perRequest).forEach((t, j) => form.append('files', new Blob([t]), `doc-${i + j}.txt`));
        const res = (await (await fetch(`${server.url}/api/v1/chats/attachment/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json()) as Array<{ id: string }>;
        ids.push(...res.map((r) => r.id));
      }
      return ids;
    },
    async close(keep = false) {
      await server.close();
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
