import { z } from 'zod';
import { AccessControl } from './access';

/**
 * Tool kinds of the registry (4.8): `python` (inline source with a `class Tools`), `openapi`
 * (a spec URL, one function per operation), `api` (one HTTP operation described in config).
 * `mcp` entries are not created here: they come from the tool-server list.
 */
export const ToolType = z.enum(['python', 'openapi', 'api', 'mcp']);
export type ToolType = z.infer<typeof ToolType>;

const HttpUrl = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), 'must be an http(s) URL');

/** A JSON schema of function arguments: an object schema. */
export const ArgumentsSchema = z.looseObject({
  type: z.literal('object', { message: "must have type 'object'" }),
  properties: z.record(z.string(), z.unknown()).optional(),
  required: z.array(z.string()).optional(),
});

/** Config of a `python` tool. The source lives in `content`. */
export const PythonToolConfig = z.looseObject({
  /** Python source defining `class Tools`; each public method becomes a function. */
  content: z.string().min(1, 'must hold the Python source').max(1_000_000, 'must be at most 1,000,000 characters'),
  /** Seconds one call may run (default 10). */
  timeout: z.number().min(0.1, 'must be at least 0.1 seconds').max(300, 'must be at most 300 seconds').optional(),
  /** Memory one call may use, in MB (default 256). */
  memory_mb: z.number().int().min(64, 'must be at least 64 MB').max(2048, 'must be at most 2048 MB').optional(),
  enabled: z.boolean().optional(),
});
export type PythonToolConfig = z.infer<typeof PythonToolConfig>;

/** Config of an `openapi` tool. */
export const OpenApiToolConfig = z.looseObject({
  /** Where the OpenAPI 3 document (JSON or YAML) is served. */
  openapi_url: HttpUrl,
  /** Sent as a Bearer token (or in the spec's apiKey header) with every call; kept in the secret store. */
  api_key: z.string().max(10_000).optional(),
  enabled: z.boolean().optional(),
});
export type OpenApiToolConfig = z.infer<typeof OpenApiToolConfig>;

/**
 * Config of an `api` tool: one HTTP operation. `{name}` placeholders in `url` are filled from
 * the arguments; the other arguments go to the query string (GET, DELETE) or the JSON body.
 */
export const ApiToolConfig = z.looseObject({
  url: HttpUrl,
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
  /** The function name the model sees (default: from the tool's name). */
  function_name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -')
    .optional(),
  /** JSON schema of the arguments (default: none). */
  parameters: ArgumentsSchema.optional(),
  /** Extra request headers. */
  headers: z.record(z.string(), z.string().max(10_000)).optional(),
  /** Sent as a Bearer token; kept in the secret store. */
  api_key: z.string().max(10_000).optional(),
  enabled: z.boolean().optional(),
});
export type ApiToolConfig = z.infer<typeof ApiToolConfig>;

/** A tool id as given at creation: letters, digits, `_`, `-`, `.` (default: a UUID). */
export const ToolId = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be 1-100 letters, digits, _, - or .');

/** POST /api/v1/tools/create. `config` is checked against the type's schema by the service. */
export const ToolCreateRequest = z.object({
  id: ToolId.optional(),
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  type: ToolType,
  description: z.string().max(10_000).optional().default(''),
  config: z.record(z.string(), z.unknown()).optional().default({}),
  access_control: AccessControl.optional().default(null),
});
export type ToolCreateRequest = z.infer<typeof ToolCreateRequest>;

/** POST /api/v1/tools/{id}/update: the new config (whole), and optionally name and description. */
export const ToolUpdateRequest = z.object({
  config: z.record(z.string(), z.unknown()),
  name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  description: z.string().max(10_000).optional(),
  access_control: AccessControl.optional(),
});
export type ToolUpdateRequest = z.infer<typeof ToolUpdateRequest>;

/** A function the model may call, in the OpenAI `function` form. */
export const FunctionSpec = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.object({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()), required: z.array(z.string()).optional() }),
});
export type FunctionSpec = z.infer<typeof FunctionSpec>;

/** A list entry of GET /api/v1/tools. MCP servers appear as `server:mcp:<server_id>`. */
export const ToolListEntry = z.object({
  id: z.string(),
  name: z.string(),
  type: ToolType,
  description: z.string(),
  enabled: z.boolean(),
  created_at: z.number(),
  /** MCP entries: the server description. */
  meta: z.object({ description: z.string() }).optional(),
  /** MCP entries: whether the caller can use the server now (oauth_2.1: has a token). */
  authenticated: z.boolean().optional(),
});
export type ToolListEntry = z.infer<typeof ToolListEntry>;

/** GET /api/v1/tools/{id}. `config.api_key` is shown to admins only. */
export const ToolResponse = z.object({
  id: z.string(),
  name: z.string(),
  type: ToolType,
  description: z.string(),
  config: z.record(z.string(), z.unknown()),
  specs: z.array(FunctionSpec),
  access_control: AccessControl,
  created_at: z.number(),
  updated_at: z.number(),
});
export type ToolResponse = z.infer<typeof ToolResponse>;

/** Answer of POST /api/v1/tools/create. */
export const ToolCreated = ToolResponse.pick({ id: true, name: true, type: true, description: true, specs: true, created_at: true });

/** Answer of POST /api/v1/tools/{id}/update: the stored config (`api_key` to admins). */
export const ToolUpdated = z.object({ id: z.string(), config: z.record(z.string(), z.unknown()) });

/** Auth types of a tool server (section 2). */
export const ToolServerAuthType = z.enum(['none', 'bearer', 'session', 'system_oauth', 'oauth_2.1']);
export type ToolServerAuthType = z.infer<typeof ToolServerAuthType>;

/** One element of TOOL_SERVER_CONNECTIONS. Unknown keys are kept. */
export const ToolServerConnection = z.looseObject({
  url: HttpUrl.transform((url) => url.replace(/\/+$/, '')),
  /** OpenAPI servers: the spec path (e.g. `openapi.json`); null for MCP. */
  path: z.string().max(2000).nullable().optional().default(null),
  spec_type: z.string().max(50).optional().default('url'),
  spec: z.string().max(1_000_000).nullable().optional().default(null),
  /** `mcp` or `openapi`. */
  type: z.enum(['mcp', 'openapi']),
  auth_type: ToolServerAuthType,
  /** Only with `bearer`; kept in the secret store. */
  key: z.string().max(10_000).nullable().optional().default(null),
  enable: z.boolean(),
  config: z.looseObject({ enable: z.boolean().optional() }).optional(),
  info: z.looseObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be 1-100 letters, digits, _, - or .')
      .optional(),
    name: z.string().max(200).optional(),
    description: z.string().max(10_000).optional(),
  }),
});
export type ToolServerConnection = z.infer<typeof ToolServerConnection>;

/** GET/POST /api/v1/configs/tool_servers. */
export const ToolServersConfig = z.object({
  TOOL_SERVER_CONNECTIONS: z
    .array(ToolServerConnection)
    .max(100)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      for (const [i, server] of list.entries()) {
        const id = server.info.id;
        if (server.type === 'mcp' && !id) ctx.addIssue({ code: 'custom', path: [i, 'info', 'id'], message: 'is required for MCP servers' });
        if (id && seen.has(id)) ctx.addIssue({ code: 'custom', path: [i, 'info', 'id'], message: `'${id}' is used twice` });
        if (id) seen.add(id);
      }
    }),
});
export type ToolServersConfig = z.infer<typeof ToolServersConfig>;

/** POST /api/v1/configs/tool_servers/verify. */
export const ToolServerVerifyRequest = z.looseObject({
  url: HttpUrl.transform((url) => url.replace(/\/+$/, '')),
  type: z.enum(['mcp', 'openapi']).optional().default('mcp'),
  auth_type: ToolServerAuthType.optional().default('none'),
  key: z.string().max(10_000).nullable().optional(),
  path: z.string().max(2000).nullable().optional(),
  /** With `oauth_2.1`, which configured server's tokens to use (default: the one with this URL). */
  info: z.looseObject({ id: z.string().optional() }).optional(),
});
export type ToolServerVerifyRequest = z.infer<typeof ToolServerVerifyRequest>;

/** The verify answer. */
export const ToolServerVerifyResponse = z.object({
  status: z.boolean(),
  specs: z.array(z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })),
});
export type ToolServerVerifyResponse = z.infer<typeof ToolServerVerifyResponse>;

/** POST /api/v1/tools/oauth/{server_id}/authorize answer: where to send the user. */
export const OAuthAuthorizeResponse = z.object({
  authenticated: z.boolean(),
  authorization_url: z.string().nullable(),
});
export type OAuthAuthorizeResponse = z.infer<typeof OAuthAuthorizeResponse>;
