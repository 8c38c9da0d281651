import type { FunctionSpec } from '../contracts/tools';
import type { Logger } from '../platform/log';
import type { ToolCall, ToolSpec } from '../providers';
import type { UsersRepo } from '../users';
import { McpUnreachableError } from './mcp/mcp-client';
import { AuthorizationRequired, type ServerCaller, type ToolServers } from './mcp/tool-servers.service';
import { functionName, ToolCallError } from './tool-errors';
import type { ToolFunction, ToolUser } from './tool-kind';
import { MCP_TOOL_PREFIX, type ToolsCaller, type ToolsService } from './tools.service';

/** Tools the model may call during one completion (the completion pipeline's ToolSet). */
export interface ResolvedTools {
  specs: ToolSpec[];
  /** Runs one call; answers the text given back to the model. Throws with a message the model can read. */
  execute(call: ToolCall, signal: AbortSignal): Promise<string>;
  /** Servers the caller must authorize first, with the URL to open (when one could be made). */
  authorizations: Array<{ serverId: string; url?: string }>;
}

/** What resolving needs: the caller, their credential (auth_type `session`) and the tool ids. */
export interface ResolveToolsInput {
  user: { id: string; role: ToolsCaller['role'] };
  toolIds: string[];
  credential?: string;
  signal?: AbortSignal;
  /** Where Parley is reached, for OAuth redirect URLs. */
  origin?: string;
}

function parseArguments(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text || '{}');
  } catch {
    throw new ToolCallError('The arguments are not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ToolCallError('The arguments must be a JSON object');
  return value as Record<string, unknown>;
}

/** An MCP server's tools: listed once per completion, each call on its own short session. */
async function mcpFunctions(servers: ToolServers, serverId: string, caller: ServerCaller, origin: string | undefined, signal?: AbortSignal): Promise<ToolFunction[]> {
  const server = await servers.findMcp(serverId);
  if (!server) return [];
  const listing = await servers.connect(server, caller, origin);
  let tools;
  try {
    tools = await listing.listTools(signal);
  } finally {
    await listing.close();
  }
  return tools.map((tool) => ({
    spec: { name: tool.name, description: tool.description, parameters: tool.inputSchema as FunctionSpec['parameters'] },
    async execute(args, _user, callSignal) {
      let session;
      try {
        session = await servers.connect(server, caller, origin);
      } catch (error) {
        if (error instanceof AuthorizationRequired) throw new ToolCallError(error.message, error.authorizationUrl);
        throw new ToolCallError(`Could not reach the MCP server ${server.info.name || serverId}: ${error instanceof Error ? error.message : 'unknown error'}`);
      }
      try {
        return await session.callTool(tool.name, args, callSignal);
      } finally {
        await session.close();
      }
    },
  }));
}

/**
 * Turns tool ids (a model's meta.toolIds plus a request's tool_ids) into function specs and an
 * executor. Unknown, disabled or unreadable ids are skipped; an unreachable MCP server is
 * skipped with a warning; an OAuth server the user has not authorized becomes a function that
 * answers the authorization URL, so the model can hand it to the user.
 */
export function createToolResolver(deps: { tools: ToolsService; servers: ToolServers; users: UsersRepo; log: Logger }) {
  const { tools, servers, users, log } = deps;

  return async function resolveTools(input: ResolveToolsInput): Promise<ResolvedTools> {
    const caller: ToolsCaller = { id: input.user.id, role: input.user.role, credential: input.credential };
    const byName = new Map<string, ToolFunction>();
    const authorizations: ResolvedTools['authorizations'] = [];
    const add = (owner: string, fn: ToolFunction) => {
      let name = functionName(fn.spec.name);
      if (byName.has(name)) name = functionName(`${owner}_${fn.spec.name}`);
      for (let n = 2; byName.has(name); n += 1) name = functionName(`${owner}_${fn.spec.name}_${n}`);
      byName.set(name, { ...fn, spec: { ...fn.spec, name } });
    };

    for (const id of [...new Set(input.toolIds)]) {
      try {
        if (id.startsWith(MCP_TOOL_PREFIX)) {
          const serverId = id.slice(MCP_TOOL_PREFIX.length);
          for (const fn of await mcpFunctions(servers, serverId, caller, input.origin, input.signal)) add(serverId, fn);
          continue;
        }
        const usable = await tools.usable(caller, id);
        if (!usable) continue;
        for (const fn of await usable.kind.functions(usable.stored)) add(id, fn);
      } catch (error) {
        if (error instanceof AuthorizationRequired) {
          authorizations.push({ serverId: error.serverId, url: error.authorizationUrl });
          const message = error.message;
          add(error.serverId, {
            spec: { name: `connect_${error.serverId}`, description: `The tools of ${error.serverId} need the user to sign in first. Call this to get the link to give the user.`, parameters: { type: 'object', properties: {} } },
            execute: async () => message,
          });
          continue;
        }
        const reason = error instanceof McpUnreachableError || error instanceof ToolCallError ? error.message : 'unexpected error';
        log.warn({ err: error, tool: id }, `tool ${id} left out of the completion: ${reason}`);
      }
    }

    let who: ToolUser | undefined;
    const user = async (): Promise<ToolUser> => {
      if (!who) {
        const row = await users.findById(caller.id);
        who = { id: caller.id, role: caller.role, ...(row ? { name: row.name, email: row.email } : {}) };
      }
      return who;
    };

    return {
      specs: [...byName.values()].map((fn) => ({ type: 'function' as const, function: fn.spec })),
      authorizations,
      async execute(call, signal) {
        const fn = byName.get(call.function.name);
        if (!fn) throw new ToolCallError(`No tool named ${call.function.name} is available`);
        try {
          return await fn.execute(parseArguments(call.function.arguments), await user(), signal);
        } catch (error) {
          if (signal.aborted || error instanceof ToolCallError) throw error;
          log.warn({ err: error, tool: call.function.name }, 'tool call failed');
          throw new ToolCallError(`The tool ${call.function.name} failed: ${error instanceof Error ? error.message : 'unknown error'}`);
        }
      },
    };
  };
}
export type ToolResolverFn = ReturnType<typeof createToolResolver>;
