import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadExports } from '../../platform/library-exports';
import { clipResult, ToolCallError } from '../tool-errors';
import { assertOutboundAllowed, offlineRefusal, outboundFetch } from '../../platform/net/outbound';

/** A tool as an MCP server lists it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** An open session with one MCP server. */
export interface McpConnection {
  listTools(signal?: AbortSignal): Promise<McpTool[]>;
  /** Calls a tool and answers its text; a tool that reports an error throws a ToolCallError. */
  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** The server refused the credentials (401/403), or OAuth needs the user. */
export class McpAuthError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 403,
  ) {
    super(message);
    this.name = 'McpAuthError';
  }
}

/** The server could not be reached or did not speak MCP. */
export class McpUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpUnreachableError';
  }
}

/** How to reach a server. */
export interface McpConnectOptions {
  headers?: Record<string, string>;
  authProvider?: OAuthClientProvider;
  timeoutMs?: number;
}

function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number') return code;
  const match = /HTTP (\d{3})/.exec(error instanceof Error ? error.message : '');
  return match ? Number(match[1]) : undefined;
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const cause = (error as { cause?: unknown }).cause;
  if (error.message === 'fetch failed' && cause instanceof Error) return cause.message;
  return error.message;
}

/** Maps a connection failure to an auth refusal, or to "unreachable". */
function classify(error: unknown): Error {
  if (error instanceof McpAuthError || error instanceof McpUnreachableError) return error;
  // Offline: said as such, never taken for the server refusing access.
  const refused = offlineRefusal(error);
  if (refused) return new McpUnreachableError(refused.message);
  const name = (error as { name?: string }).name ?? '';
  const status = statusOf(error);
  if (name === 'UnauthorizedError' || status === 401) return new McpAuthError('The server refused the credentials', 401);
  if (status === 403) return new McpAuthError('The server refused access', 403);
  return new McpUnreachableError(reasonOf(error));
}

/**
 * Opens an MCP session with the official SDK client: Streamable HTTP first, then the older
 * HTTP+SSE transport when the server does not speak Streamable HTTP. Auth failures are never
 * retried over SSE.
 */
export async function connectMcp(url: string, options: McpConnectOptions = {}): Promise<McpConnection> {
  const [{ Client }, { StreamableHTTPClientTransport }, { SSEClientTransport }] = await Promise.all([
    loadExports(import('@modelcontextprotocol/sdk/client/index.js'), '@modelcontextprotocol/sdk/client/index.js', 'Client'),
    loadExports(import('@modelcontextprotocol/sdk/client/streamableHttp.js'), '@modelcontextprotocol/sdk/client/streamableHttp.js', 'StreamableHTTPClientTransport'),
    loadExports(import('@modelcontextprotocol/sdk/client/sse.js'), '@modelcontextprotocol/sdk/client/sse.js', 'SSEClientTransport'),
  ]);
  const timeout = options.timeoutMs ?? 15_000;
  const requestInit: RequestInit = { headers: options.headers ?? {} };
  const target = new URL(url);
  await assertOutboundAllowed('tool-server', target);
  // The transports' own requests (and the OAuth ones they make) ask the guard too.
  const fetch = outboundFetch('tool-server');

  const client = new Client({ name: 'parley', version: '0.1.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(target, { requestInit, authProvider: options.authProvider, fetch }), { timeout });
  } catch (error) {
    const first = classify(error);
    await client.close().catch(() => undefined);
    if (first instanceof McpAuthError) throw first;
    const legacy = new Client({ name: 'parley', version: '0.1.0' });
    try {
      await legacy.connect(new SSEClientTransport(target, { requestInit, authProvider: options.authProvider, fetch }), { timeout });
    } catch (sseError) {
      await legacy.close().catch(() => undefined);
      const second = classify(sseError);
      throw second instanceof McpAuthError ? second : first;
    }
    return wrap(legacy, timeout);
  }
  return wrap(client, timeout);
}

function wrap(client: Client, timeout: number): McpConnection {
  return {
    async listTools(signal) {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout, signal });
        for (const tool of page.tools) {
          tools.push({ name: tool.name, description: tool.description ?? '', inputSchema: (tool.inputSchema ?? { type: 'object', properties: {} }) as Record<string, unknown> });
        }
        cursor = page.nextCursor;
      } while (cursor && tools.length < 1000);
      return tools;
    },
    async callTool(name, args, signal) {
      let result;
      try {
        result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        const failure = classify(error);
        throw new ToolCallError(failure instanceof McpAuthError ? failure.message : `The MCP server failed: ${error instanceof Error ? error.message : 'unknown error'}`);
      }
      const parts = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
      const text = parts.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
      const body = text || (result.structuredContent ? JSON.stringify(result.structuredContent) : '');
      if (result.isError) throw new ToolCallError(body || 'The tool reported an error');
      return clipResult(body);
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}
