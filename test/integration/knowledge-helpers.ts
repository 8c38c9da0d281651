import { expect } from 'vitest';
import type { TestUser } from '../helpers/builders';
import type { ServiceClients } from '../helpers/client';

/** Uploads one file as `user` (through the attachment upload) and returns its id. */
export async function uploadFile(server: ServiceClients, user: TestUser, name: string, data: Buffer | string): Promise<string> {
  const body = new FormData();
  body.append('files', new Blob([data]), name);
  const res = await server.as(user.token).raw('POST', '/api/v1/chats/attachment/upload', body);
  expect(res.status, res.text).toBe(200);
  return res.body[0].id as string;
}

/** Creates a knowledge base and returns its id. */
export async function createBase(server: ServiceClients, user: TestUser, name = 'Docs', extra: Record<string, unknown> = {}): Promise<string> {
  const res = await server.as(user.token).post('/api/knowledge/create', { name, description: `${name} base`, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

/** Polls a base until no file is pending or processing; returns the files. */
export async function waitForFiles(server: ServiceClients, user: TestUser, id: string, timeoutMs = 20_000): Promise<Array<{ id: string; name: string; status: string; error?: string }>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.as(user.token).get(`/api/v1/knowledge/${id}`);
    expect(res.status, res.text).toBe(200);
    const files = res.body.files as Array<{ id: string; name: string; status: string; error?: string }>;
    if (files.every((f) => f.status === 'completed' || f.status === 'failed')) return files;
    if (Date.now() > deadline) throw new Error(`files still processing: ${JSON.stringify(files)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Adds a file to a base and waits until it is indexed (or failed). */
export async function addAndWait(server: ServiceClients, user: TestUser, base: string, fileId: string) {
  const res = await server.as(user.token).post(`/api/knowledge/${base}/file/add`, { file_id: fileId });
  expect(res.status, res.text).toBe(200);
  const files = await waitForFiles(server, user, base);
  return files.find((f) => f.id === fileId)!;
}

/** Runs a collection query and returns the documents and relevances. */
export async function query(server: ServiceClients, user: TestUser, collections: string[], text: string, extra: Record<string, unknown> = {}) {
  const res = await server.as(user.token).post('/api/v1/retrieval/query/collection', { collection_names: collections, query: text, ...extra });
  expect(res.status, res.text).toBe(200);
  return { documents: res.body.documents[0] as string[], distances: res.body.distances[0] as number[], metadatas: res.body.metadatas[0] as Array<Record<string, any>> };
}
