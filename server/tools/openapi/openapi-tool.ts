import { ApiToolConfig, OpenApiToolConfig, type FunctionSpec } from '../../contracts/tools';
import { badRequest } from '../../platform/http/errors';
import { describeIssue } from '../../platform/http/validate';
import { functionName, ToolCallError } from '../tool-errors';
import type { ToolKind } from '../tool-kind';
import { sendHttpCall } from './http-call';
import { loadOpenApi, requestFor, type OpenApiApi } from './openapi-spec';

const CALL_TIMEOUT_MS = 60_000;
/** Loaded documents are reused for this long. */
const CACHE_MS = 5 * 60_000;

/** `openapi` tools: one function per operation of the document at `config.openapi_url`. */
export function openApiToolKind(): ToolKind {
  const cache = new Map<string, { at: number; api: Promise<OpenApiApi> }>();

  function load(url: string, apiKey: string | undefined, cacheKey: string): Promise<OpenApiApi> {
    const hit = cache.get(cacheKey);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.api;
    const api = loadOpenApi(url, { apiKey });
    cache.set(cacheKey, { at: Date.now(), api });
    api.catch(() => cache.delete(cacheKey));
    return api;
  }

  return {
    async prepare(raw) {
      const parsed = OpenApiToolConfig.safeParse(raw);
      if (!parsed.success) throw badRequest(`Invalid OpenAPI tool config: ${describeIssue(parsed.error)}`, 'INVALID_TOOL_CONFIG');
      const { api_key: apiKey, ...config } = parsed.data;
      let api: OpenApiApi;
      try {
        api = await loadOpenApi(config.openapi_url, { apiKey });
      } catch (error) {
        throw badRequest(`Could not load the OpenAPI document at ${config.openapi_url}: ${error instanceof Error ? error.message : 'unknown error'}`, 'INVALID_TOOL_CONFIG');
      }
      if (api.operations.length === 0) throw badRequest(`The OpenAPI document at ${config.openapi_url} has no operations`, 'INVALID_TOOL_CONFIG');
      return { config, apiKey, specs: api.operations.map((op) => op.spec) };
    },
    async functions(tool) {
      const url = String(tool.config.openapi_url);
      let api: OpenApiApi;
      try {
        api = await load(url, tool.apiKey, `${tool.id}@${tool.updatedAt}`);
      } catch (error) {
        throw new ToolCallError(`Could not load the OpenAPI document of ${tool.name}: ${error instanceof Error ? error.message : 'unknown error'}`);
      }
      return api.operations.map((op) => ({
        spec: op.spec,
        execute: (args, _user, signal) => sendHttpCall({ ...requestFor(api, op, args, tool.apiKey), timeoutMs: CALL_TIMEOUT_MS, signal }),
      }));
    },
  };
}

/** The single function of an `api` tool. */
function apiSpec(config: ApiToolConfig, tool: { name: string; description: string }): FunctionSpec {
  const parameters = config.parameters ?? { type: 'object' as const, properties: {} };
  return {
    name: config.function_name ?? functionName(tool.name),
    description: tool.description || `${config.method} ${config.url}`,
    parameters: { type: 'object', properties: parameters.properties ?? {}, ...(parameters.required ? { required: parameters.required } : {}) },
  };
}

/**
 * `api` tools: one HTTP operation. `{name}` placeholders in the URL take arguments; the rest go
 * to the query string (GET, DELETE) or a JSON body; the key is sent as a Bearer token.
 */
export function apiToolKind(): ToolKind {
  return {
    async prepare(raw, tool) {
      const parsed = ApiToolConfig.safeParse(raw);
      if (!parsed.success) throw badRequest(`Invalid API tool config: ${describeIssue(parsed.error)}`, 'INVALID_TOOL_CONFIG');
      const { api_key: apiKey, ...config } = parsed.data;
      return { config, apiKey, specs: [apiSpec(parsed.data, tool)] };
    },
    async functions(tool) {
      const config = ApiToolConfig.parse(tool.config);
      return [
        {
          spec: apiSpec(config, tool),
          async execute(args, _user, signal) {
            const rest: Record<string, unknown> = { ...args };
            const url = config.url.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
              const value = rest[name];
              delete rest[name];
              if (value === undefined || value === null) throw new ToolCallError(`Missing required argument '${name}'`);
              return encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
            });
            const headers: Record<string, string> = { ...config.headers, ...(tool.apiKey ? { authorization: `Bearer ${tool.apiKey}` } : {}) };
            const inQuery = config.method === 'GET' || config.method === 'DELETE';
            const target = new URL(url);
            if (inQuery) for (const [k, v] of Object.entries(rest)) target.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
            return sendHttpCall({ method: config.method, url: target.href, headers, ...(inQuery ? {} : { body: rest }), timeoutMs: CALL_TIMEOUT_MS, signal });
          },
        },
      ];
    },
  };
}
