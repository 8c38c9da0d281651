import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiPath } from '../../server/openapi';
import { listRoutes } from '../../server/platform/http/route-table';
import { startTestServer, type TestServer } from '../helpers/server';

describe('the OpenAPI reference at /api/openapi.json', () => {
  let server: TestServer;
  let doc: any;

  beforeAll(async () => {
    server = await startTestServer();
    const res = await server.anon.get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every route the service mounts', () => {
    const undocumented = listRoutes(server.app)
      .filter((route) => !doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.path}: declare it with route() (server/platform/http/route.ts)`);
    expect(undocumented).toEqual([]);
    expect(buildOpenApiDocument(listRoutes(server.app), '0').missing).toEqual([]);
  });

  it('reports a mounted route that has no declaration instead of leaving it out silently', () => {
    const routes = [...listRoutes(server.app), { method: 'GET', path: '/api/v1/not-declared', handlers: [() => undefined] }];
    expect(buildOpenApiDocument(routes, '0').missing).toEqual(['GET /api/v1/not-declared']);
  });

  it('gives every JSON answer its schema', () => {
    const bare = Object.entries<any>(doc.paths).flatMap(([path, operations]) =>
      Object.entries<any>(operations)
        .filter(([, op]) => op.responses['200']?.content?.['application/json'] && Object.keys(op.responses['200'].content['application/json'].schema).length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(bare).toEqual([]);
  });

  it('describes requests and responses from the zod contracts', () => {
    const chat = doc.paths['/v1/chat/completions'].post;
    const body = chat.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['model', 'messages']));
    expect(body.properties.tools.items.properties.type).toMatchObject({ const: 'function' });
    expect(chat.responses['200'].content['application/json'].schema.properties.object).toMatchObject({ const: 'chat.completion' });
    expect(chat.responses['200'].content['text/event-stream']).toBeDefined();
    expect(chat.responses.default.content['application/json'].schema.$ref).toBe('#/components/schemas/OpenAIError');
    expect(chat['x-parley-access']).toBe('user');

    const usage = doc.paths['/api/v1/usage'].get;
    expect(usage['x-parley-access']).toBe('admin');
    expect(usage.parameters).toEqual([expect.objectContaining({ name: 'days', in: 'query', required: false })]);

    const signin = doc.paths['/api/v1/auths/signin'].post;
    expect(signin.security).toEqual([]);
    expect(Object.keys(signin.requestBody.content['application/json'].schema.properties)).toEqual(expect.arrayContaining(['email', 'password']));

    const user = doc.paths['/api/v1/users/{user_id}'].get;
    expect(user.parameters).toEqual([expect.objectContaining({ name: 'user_id', in: 'path', required: true })]);
    expect(doc.paths['/v1/models/{id}'].get).toBeDefined();
  });
});
