import { describe, expect, it } from 'vitest';
import { parseOpenApi, requestFor } from './openapi-spec';

const doc = {
  openapi: '3.1.0',
  servers: [{ url: 'https://api.example.com/v2' }],
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } },
    schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } },
  },
  paths: {
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { summary: 'Get an item', parameters: [{ $ref: '#/components/parameters/Limit' }] },
      put: { operationId: 'put item!', requestBody: { content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } },
    },
    '/tree': { post: { operationId: 'grow', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } },
  },
};

describe('OpenAPI documents as functions', () => {
  const api = parseOpenApi(doc, 'https://api.example.com/openapi.json');

  it('names operations by operationId or method and path, with provider-safe names', () => {
    expect(api.operations.map((op) => op.spec.name)).toEqual(['get_items_id', 'put_item', 'grow']);
    expect(api.baseUrl).toBe('https://api.example.com/v2');
    expect(api.auth).toEqual({ kind: 'header', name: 'X-API-Key' });
  });

  it('merges path-level, referenced and body parameters, and survives recursive schemas', () => {
    const [get, put, grow] = api.operations;
    expect(get!.spec.parameters).toEqual({ type: 'object', properties: { id: { type: 'string' }, limit: { type: 'integer' } }, required: ['id'] });
    expect(put!.body).toBe('value');
    expect(put!.spec.parameters.properties.body).toEqual({ type: 'array', items: { type: 'string' } });
    expect(grow!.body).toBe('object');
    expect(JSON.stringify(grow!.spec.parameters).length).toBeLessThan(5000);
  });

  it('builds the request: path escaped, query, key in the named header, body', () => {
    const [get, put] = api.operations;
    expect(requestFor(api, get!, { id: 'a/b', limit: 3 }, 'secret')).toEqual({ method: 'GET', url: 'https://api.example.com/v2/items/a%2Fb?limit=3', headers: { 'X-API-Key': 'secret' }, body: undefined });
    expect(requestFor(api, put!, { id: 'x', body: ['1'] }, undefined)).toMatchObject({ method: 'PUT', body: ['1'] });
    expect(() => requestFor(api, get!, {}, undefined)).toThrow(/Missing required argument 'id'/);
  });

  it('refuses a document without paths', () => {
    expect(() => parseOpenApi({ hello: 1 }, 'https://x/')).toThrow(/not an OpenAPI document/);
  });
});
