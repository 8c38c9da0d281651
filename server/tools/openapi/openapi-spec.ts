import type { FunctionSpec } from '../../contracts/tools';
import { functionName, ToolCallError } from '../tool-errors';
import { offlineRefusal, outboundFetch } from '../../platform/net/outbound';

type Json = Record<string, unknown>;

/** One API operation as a callable function. */
export interface OpenApiOperation {
  spec: FunctionSpec;
  method: string;
  path: string;
  /** Parameters that do not go into the JSON body. */
  params: Array<{ name: string; in: 'path' | 'query' | 'header' | 'cookie' }>;
  /** How the JSON body is built: from the remaining arguments (`object`), from `body`, or none. */
  body: 'object' | 'value' | 'none';
}

/** Where and how an API is called. */
export interface OpenApiAuth {
  /** `header` puts the key in `name`; `query` in the query parameter `name`; `bearer` in Authorization. */
  kind: 'bearer' | 'header' | 'query';
  name: string;
}

/** A loaded OpenAPI document, reduced to what calls need. */
export interface OpenApiApi {
  baseUrl: string;
  auth: OpenApiAuth;
  operations: OpenApiOperation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Resolves local `$ref`s (`#/components/...`) to a depth of 10; cycles end as `{}`. */
function deref(value: unknown, doc: Json, depth = 0): unknown {
  if (depth > 10) return {};
  if (Array.isArray(value)) return value.map((v) => deref(v, doc, depth + 1));
  if (!isObject(value)) return value;
  if (typeof value.$ref === 'string') {
    const ref = value.$ref;
    if (!ref.startsWith('#/')) return {};
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) ? target[key] : undefined;
    }
    return deref(target ?? {}, doc, depth + 1);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deref(v, doc, depth + 1)]));
}

function authOf(doc: Json): OpenApiAuth {
  const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? Object.values(doc.components.securitySchemes) : [];
  for (const raw of schemes) {
    const scheme = deref(raw, doc);
    if (isObject(scheme) && scheme.type === 'apiKey' && typeof scheme.name === 'string' && (scheme.in === 'header' || scheme.in === 'query')) {
      return { kind: scheme.in, name: scheme.name };
    }
  }
  return { kind: 'bearer', name: 'Authorization' };
}

/**
 * Reads an OpenAPI 3 document: one function per operation, named by `operationId` (else
 * `method_path`), with path/query/header parameters and the JSON body's properties as
 * arguments. A body that is not an object becomes one `body` argument.
 */
export function parseOpenApi(doc: unknown, specUrl: string): OpenApiApi {
  if (!isObject(doc) || !isObject(doc.paths)) throw new Error("it is not an OpenAPI document (no 'paths' object)");
  const serverUrl = Array.isArray(doc.servers) && isObject(doc.servers[0]) && typeof doc.servers[0].url === 'string' ? doc.servers[0].url : '';
  const baseUrl = new URL(serverUrl || '/', specUrl).href.replace(/\/+$/, '');
  const operations: OpenApiOperation[] = [];
  const used = new Set<string>();
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const item = deref(rawItem, doc);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      let name = functionName(typeof op.operationId === 'string' ? op.operationId : `${method}${path.replace(/[^A-Za-z0-9]+/g, '_')}`);
      for (let n = 2; used.has(name); n += 1) name = functionName(`${name}_${n}`);
      used.add(name);
      const properties: Json = {};
      const required: string[] = [];
      const params: OpenApiOperation['params'] = [];
      for (const rawParam of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const param = deref(rawParam, doc);
        if (!isObject(param) || typeof param.name !== 'string') continue;
        const where = param.in;
        if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie') continue;
        if (params.some((p) => p.name === param.name)) continue;
        params.push({ name: param.name, in: where });
        properties[param.name] = { ...(isObject(param.schema) ? param.schema : { type: 'string' }), ...(typeof param.description === 'string' ? { description: param.description } : {}) };
        if (param.required === true || where === 'path') required.push(param.name);
      }
      let body: OpenApiOperation['body'] = 'none';
      const content = isObject(op.requestBody) ? (deref(op.requestBody, doc) as Json).content : undefined;
      const schema = isObject(content) && isObject(content['application/json']) ? (content['application/json'] as Json).schema : undefined;
      if (isObject(schema)) {
        if (schema.type === 'object' || isObject(schema.properties)) {
          body = 'object';
          for (const [prop, propSchema] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
            if (prop in properties) continue;
            properties[prop] = propSchema;
          }
          if (Array.isArray(schema.required)) required.push(...schema.required.filter((r): r is string => typeof r === 'string' && !required.includes(r)));
        } else {
          body = 'value';
          properties.body = schema;
          if (isObject(op.requestBody) && op.requestBody.required === true) required.push('body');
        }
      }
      const description = [op.summary, op.description].filter((s): s is string => typeof s === 'string' && s.length > 0).join(' — ') || `${method.toUpperCase()} ${path}`;
      operations.push({
        spec: { name, description, parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) } },
        method: method.toUpperCase(),
        path,
        params,
        body,
      });
    }
  }
  return { baseUrl, auth: authOf(doc), operations };
}

/** Fetches and parses the document at `url` (JSON). Throws an Error saying what went wrong. */
export async function loadOpenApi(url: string, options: { timeoutMs?: number; apiKey?: string } = {}): Promise<OpenApiApi> {
  let response: Response;
  try {
    response = await outboundFetch('tool-server')(url, {
      headers: { accept: 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    const refused = offlineRefusal(error);
    if (refused) throw refused;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : 'network error';
    throw new Error(`could not reach it (${reason})`);
  }
  if (!response.ok) throw new Error(`it answered HTTP ${response.status}`);
  let doc: unknown;
  try {
    doc = JSON.parse(await response.text());
  } catch {
    throw new Error('it is not JSON (Parley reads OpenAPI documents in JSON)');
  }
  return parseOpenApi(doc, url);
}

/** Builds the HTTP request of one operation call from the model's arguments. */
export function requestFor(api: OpenApiApi, op: OpenApiOperation, args: Record<string, unknown>, apiKey: string | undefined) {
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  const taken = new Set<string>();
  for (const param of op.params) {
    const value = args[param.name];
    taken.add(param.name);
    if (value === undefined || value === null) {
      if (param.in === 'path') throw new ToolCallError(`Missing required argument '${param.name}'`);
      continue;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(text));
    else if (param.in === 'query') {
      if (Array.isArray(value)) for (const v of value) query.append(param.name, typeof v === 'string' ? v : JSON.stringify(v));
      else query.set(param.name, text);
    } else if (param.in === 'header') headers[param.name] = text;
  }
  if (apiKey) {
    if (api.auth.kind === 'bearer') headers.authorization = `Bearer ${apiKey}`;
    else if (api.auth.kind === 'header') headers[api.auth.name] = apiKey;
    else query.set(api.auth.name, apiKey);
  }
  let body: unknown;
  if (op.body === 'object') body = Object.fromEntries(Object.entries(args).filter(([k]) => !taken.has(k)));
  else if (op.body === 'value') body = args.body;
  const search = query.toString();
  return { method: op.method, url: `${api.baseUrl}${path}${search ? `?${search}` : ''}`, headers, body };
}
