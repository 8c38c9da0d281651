import { z } from 'zod';
import { V1ChatCompletionChunk, V1Error } from '../contracts/openai';
import { docOf, type Guard, type RouteDoc } from '../platform/http/route';
import type { RouteEntry } from '../platform/http/route-table';

type JsonSchema = Record<string, unknown>;

/** The OpenAPI 3.1 document and the mounted routes it had no entry for. */
export interface OpenApiBuild {
  document: Record<string, unknown>;
  missing: string[];
}

const ERROR_DETAIL: JsonSchema = { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] };

/** Express path → OpenAPI template: `/:id` and `/*id` become `/{id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/\/[:*]([A-Za-z0-9_]+)/g, '/{$1}');
}

function pathParams(expressPath: string): string[] {
  return [...expressPath.matchAll(/\/[:*]([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

/** Converts zod schemas with zod's own JSON Schema output, hoisting shared definitions into components. */
function createConverter(components: Record<string, JsonSchema>) {
  let counter = 0;
  return (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    const { $schema: _ignored, $defs, ...rest } = raw;
    if (!$defs) return rest;
    counter += 1;
    const prefix = `S${counter}_`;
    const rename = (value: unknown): JsonSchema => JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, `"#/components/schemas/${prefix}$1"`)) as JsonSchema;
    for (const [name, def] of Object.entries($defs as Record<string, unknown>)) components[`${prefix}${name}`] = rename(def);
    return rename(rest);
  };
}

const ACCESS_TEXT: Record<Guard, string> = {
  public: 'No authentication.',
  session: 'Any signed-in account, pending ones included.',
  user: 'A verified account (role user or admin).',
  admin: 'Administrators only.',
};

function responseContent(doc: RouteDoc, schema: JsonSchema): Record<string, unknown> {
  const chunk = { $ref: '#/components/schemas/ChatCompletionChunk' };
  switch (doc.produces) {
    case 'event-stream':
      return { 'text/event-stream': { schema: { type: 'string' } } };
    case 'json-or-event-stream':
      return { 'application/json': { schema }, 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events; each `data:` line holds one chunk', 'x-parley-event': chunk } } };
    case 'json-or-markdown':
      return { 'application/json': { schema }, 'text/markdown': { schema: { type: 'string' } } };
    case 'binary':
      return { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };
    case 'zip':
      return { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } };
    case 'png':
      return { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } };
    case 'svg':
      return { 'image/svg+xml': { schema: { type: 'string', contentMediaType: 'image/svg+xml' } } };
    case 'html':
      return { 'text/html': { schema: { type: 'string' } } };
    default:
      return { 'application/json': { schema } };
  }
}

/** The success answer of an operation: 200 with its content, or 303 for a redirect. */
function successResponse(doc: RouteDoc, schema: JsonSchema): Record<string, unknown> {
  if (doc.produces === 'redirect') return { '303': { description: 'See Other: the `Location` header says where to go' } };
  return { '200': { description: 'OK', content: responseContent(doc, schema) } };
}

/**
 * Builds the OpenAPI 3.1 document from the mounted routes and the declaration each carries
 * (`route()` in platform/http/route.ts): summary, access, permission, request body and query
 * parameters, the 200 answer's schema. Routes mounted without a declaration are reported, not guessed.
 */
export function buildOpenApiDocument(routes: RouteEntry[], version: string): OpenApiBuild {
  const components: Record<string, JsonSchema> = {};
  const convert = createConverter(components);
  components.ChatCompletionChunk = convert(V1ChatCompletionChunk, 'output');
  components.Error = ERROR_DETAIL;
  components.OpenAIError = convert(V1Error, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  const missing: string[] = [];

  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const doc = docOf(route.handlers);
    if (!doc) {
      missing.push(key);
      continue;
    }
    const parameters: unknown[] = pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (doc.query) {
      const schema = convert(doc.query, 'input');
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {})) {
        parameters.push({ name, in: 'query', required: required.has(name), schema: property, ...(typeof property.description === 'string' ? { description: property.description } : {}) });
      }
    }
    const access = doc.guard;
    const isV1 = route.path.startsWith('/v1/');
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: doc.summary,
      description: `Access: ${ACCESS_TEXT[access]}${doc.permission ? ` Needs the permission \`${doc.permission}\` (admins hold every permission).` : ''}`,
      tags: [tagOf(route.path)],
      'x-parley-access': access,
      ...(doc.permission ? { 'x-parley-permission': doc.permission } : {}),
      security: access === 'public' ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        ...successResponse(doc, doc.response ? convert(doc.response, 'output') : {}),
        default: { description: isV1 ? 'Error, in OpenAI’s shape' : 'Error', content: { 'application/json': { schema: { $ref: isV1 ? '#/components/schemas/OpenAIError' : '#/components/schemas/Error' } } } },
      },
    };
    if (doc.body) operation.requestBody = { required: true, content: { 'application/json': { schema: convert(doc.body, 'input') } } };
    else if (doc.consumes === 'multipart') operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } };
    const template = openApiPath(route.path);
    paths[template] = { ...paths[template], [route.method.toLowerCase()]: operation };
  }

  return {
    document: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version,
        description:
          'The HTTP API of Parley. Authenticate with `Authorization: Bearer <token>`, where the token is a session token (from sign-in) or an API key `sk-…`; browsers may use the `token` cookie. Errors answer `{detail}`, except under `/v1`, the OpenAI-compatible API, which answers OpenAI’s `{error: {message, type, code}}`.',
      },
      servers: [{ url: '/' }],
      tags: [...new Set(Object.values(paths).flatMap((p) => Object.values(p).map((o) => (o as { tags: string[] }).tags[0]!)))].sort().map((name) => ({ name })),
      paths,
      components: {
        schemas: components,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A session token or an API key (`sk-…`)' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'token' },
        },
      },
    },
    missing,
  };
}

/** The reference's section for a path. */
function tagOf(path: string): string {
  if (path.startsWith('/v1/')) return 'OpenAI-compatible (/v1)';
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'auths') return 'auths';
  if (parts[0] === 'compat' || parts[0] === 'local' || parts[0] === 'builtin') return 'providers';
  if (parts[0] !== 'api') return 'service';
  const rest = parts[1] === 'v1' ? parts.slice(2) : parts.slice(1);
  const first = rest[0] ?? 'service';
  if (first === 'configs') return rest[1] === 'tool_servers' ? 'tools' : rest[1] === 'connections' ? 'providers' : 'config';
  if (first === 'chat' || first === 'folders' || first === 'files') return first === 'chat' ? 'chats' : first;
  if (first === 'openapi.json' || first === 'config') return 'service';
  return first;
}
