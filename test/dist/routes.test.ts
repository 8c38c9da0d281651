import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../helpers/client';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { createBase, uploadFile } from '../integration/knowledge-helpers';
import { startBuiltService, type BuiltService } from './built-service';
import { walkRequests, type OpenApiDocument, type WalkRequest } from './openapi-walk';

/** Ends the session it is sent with: walked last, so the rest of the walk stays signed in. */
const ENDS_SESSION = /\/signout$/;

/** Sends one walk request; a multipart body carries a small text file under the usual field names. */
function send(client: ApiClient, request: WalkRequest): Promise<ApiResponse> {
  if (request.body && 'multipart' in request.body) {
    const form = new FormData();
    for (const field of ['file', 'files']) form.append(field, new Blob(['walked through the built service']), 'walk.txt');
    return client.raw(request.method, request.path, form);
  }
  if (request.body) return client.raw(request.method, request.path, JSON.stringify(request.body.json), { 'content-type': 'application/json' });
  return client.raw(request.method, request.path);
}

/** A refusal must say what is wrong: `{detail}`, or OpenAI's `{error: {message}}` under /v1. */
function namesItsProblem(res: ApiResponse): boolean {
  const body = res.body as { detail?: unknown; error?: { message?: unknown } } | string;
  // Pages a person opens in the browser (the OAuth callback) explain themselves in HTML.
  if ((res.headers.get('content-type') ?? '').startsWith('text/html')) return res.text.length > 0;
  return typeof body === 'object' && body !== null && (typeof body.detail === 'string' || typeof body.error?.message === 'string');
}

/**
 * Every route the built service mounts, read from its own API reference (which documents each
 * mounted route: test/integration/openapi.test.ts), gets requests from the built service as
 * `npm run serve` runs it: once without credentials, once as an admin with real ids and a body
 * its schema accepts. None may fail with a server error.
 */
describe('every route of the built service', () => {
  let service: BuiltService;
  let admin: TestUser;
  let other: TestUser;
  let doc: OpenApiDocument;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    service = await startBuiltService();
    admin = await signupAdmin(service);
    other = await buildUser(service, admin, 'user', 'Other');
    const as = service.as(admin.token);
    const json = async (res: Promise<ApiResponse>) => {
      const done = await res;
      if (done.status !== 200) throw new Error(`setup failed: ${done.status} ${done.text}`);
      return done.body as { id: string; command?: string };
    };
    ids.set('user', other.id);
    ids.set('group', (await json(as.post('/api/v1/groups/create', { name: 'Walkers' }))).id);
    ids.set('chat', (await json(as.post('/api/v1/chats/new', { chat: { title: 'Walked' } }))).id);
    ids.set('folder', (await json(as.post('/api/v1/folders', { name: 'Walked' }))).id);
    ids.set('prompt', 'walked');
    await json(as.post('/api/v1/prompts/create', { command: '/walked', title: 'Walked', content: 'Walk {{x}}' }));
    ids.set('model', (await json(as.post('/api/v1/models/create', { id: 'walked-model', name: 'Walked' }))).id);
    ids.set('knowledge', await createBase(service, admin, 'Walked'));
    ids.set('file', await uploadFile(service, admin, 'walked.txt', 'The walk reads this file.'));
    const spec = await service.anon.get('/api/openapi.json');
    expect(spec.status).toBe(200);
    doc = spec.body as OpenApiDocument;
  }, 90_000);

  afterAll(async () => {
    await service?.close();
  });

  /** A real id for a path parameter, by the route family; unknown ids elsewhere. */
  function idFor(template: string, name: string): string {
    if (name === 'user_id') return ids.get('user')!;
    if (name === 'file_id') return ids.get('file')!;
    if (name === 'command') return ids.get('prompt')!;
    if (name === 'query:id') return template.startsWith('/api/v1/models/') ? ids.get('model')! : 'walked-unknown';
    if (name !== 'id') return 'walked-unknown';
    if (template.startsWith('/api/v1/groups/')) return ids.get('group')!;
    if (template.startsWith('/api/v1/chats/')) return ids.get('chat')!;
    if (template.startsWith('/api/v1/folders/')) return ids.get('folder')!;
    if (/^\/api(\/v1)?\/knowledge\//.test(template)) return ids.get('knowledge')!;
    if (template.startsWith('/api/v1/files/')) return ids.get('file')!;
    return 'walked-unknown';
  }

  /** Reads, then changes, then deletions, then what ends the session. */
  function ordered(requests: WalkRequest[]): WalkRequest[] {
    const rank = (r: WalkRequest) => (ENDS_SESSION.test(r.template) ? 3 : r.method === 'GET' ? 0 : r.method === 'DELETE' ? 2 : 1);
    return [...requests].sort((a, b) => rank(a) - rank(b));
  }

  async function walk(client: ApiClient): Promise<{ failures: string[]; unnamed: string[]; count: number; families: Set<string> }> {
    const failures: string[] = [];
    const unnamed: string[] = [];
    const families = new Set<string>();
    const known = { email: 'walker@example.com', password: 'walker-password', url: 'http://127.0.0.1:9/', file_id: ids.get('file'), folder_id: ids.get('folder'), user_ids: [ids.get('user')] };
    const requests = ordered(walkRequests(doc, idFor, known));
    for (const request of requests) {
      const res = await send(client, request);
      families.add(request.template.split('/').slice(0, request.template.startsWith('/api/v1/') ? 4 : 3).join('/'));
      if (res.status >= 500) failures.push(`${request.method} ${request.path} → ${res.status} ${res.text.slice(0, 200)}`);
      else if (res.status >= 400 && !namesItsProblem(res)) unnamed.push(`${request.method} ${request.path} → ${res.status} ${res.text.slice(0, 120)}`);
    }
    return { failures, unnamed, count: requests.length, families };
  }

  it('answers every documented operation without credentials, refusing without a server error', async () => {
    const result = await walk(service.anon);
    expect(result.failures).toEqual([]);
    expect(result.unnamed).toEqual([]);
    expect(result.count).toBeGreaterThan(150);
  }, 120_000);

  it('answers every documented operation for an admin with real ids and schema-valid bodies, without a server error', async () => {
    const result = await walk(service.as(admin.token));
    expect(result.failures).toEqual([]);
    expect(result.unnamed).toEqual([]);
    // Route families reached, among them the ones that load libraries lazily in the bundle.
    for (const family of ['/api/v1/configs', '/api/v1/knowledge', '/api/v1/chats', '/api/v1/auths', '/builtin/models', '/api/v1/tools', '/v1/chat']) {
      expect([...result.families].some((f) => f.startsWith(family)), family).toBe(true);
    }
    expect(service.exited()).toBeUndefined();
    expect((await service.anon.get('/health')).status).toBe(200);
  }, 180_000);
});
