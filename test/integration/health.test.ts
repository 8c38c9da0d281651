import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

describe('service skeleton', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers /health without authentication', async () => {
    const res = await server.anon.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
  });

  it('answers unknown API routes with 404 JSON', async () => {
    const res = await server.anon.get('/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.detail).toMatch(/no route/i);
  });

  it('answers malformed JSON with 400 JSON, not an HTML page', async () => {
    const res = await server.anon.raw('POST', '/api/v1/auths/signin', '{"email": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'The request body is not valid JSON', code: 'MALFORMED_JSON' });
  });

  it('answers an oversized body with 413 JSON', async () => {
    const huge = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(11 * 1024 * 1024) });
    const res = await server.anon.raw('POST', '/api/v1/auths/signin', huge, { 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/too large/);
  });

  it('serves a page at / even before the UI is built', async () => {
    const res = await server.anon.get('/', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Parley');
  });
});
