import type { Role } from '../contracts/auth';
import type { ToolCreateRequest, ToolListEntry, ToolResponse, ToolType, ToolUpdateRequest } from '../contracts/tools';
import type { Principal } from '../permissions';
import { canAccess } from '../permissions';
import type { Clock } from '../platform/clock';
import { readJson, writeJson } from '../platform/db/json';
import { onUniqueViolation } from '../platform/db/translate-error';
import { badRequest, conflict, notFound } from '../platform/http/errors';
import { newId } from '../platform/ids';
import type { SecretStore } from '../secrets';
import type { ToolServers } from './mcp/tool-servers.service';
import type { StoredTool, ToolKind } from './tool-kind';
import { configOf, isToolEnabled, presentTool, presentToolEntry, specsOf } from './tools.present';
import type { ToolRow, ToolsRepo } from './tools.repo';
import type { AccessControl } from '../contracts/access';

/** The prefix of MCP server entries in tool lists and model toolIds. */
export const MCP_TOOL_PREFIX = 'server:mcp:';

const apiKeyName = (toolId: string) => `tool:${toolId}:api_key`;

/** The caller as the registry sees them. */
export interface ToolsCaller {
  id: string;
  role: Role;
  credential?: string;
}

export interface ToolsServiceDeps {
  repo: ToolsRepo;
  secrets: SecretStore;
  clock: Clock;
  servers: ToolServers;
  principal(user: { id: string; role: Role }): Promise<Principal>;
  kinds: Record<Exclude<ToolType, 'mcp'>, ToolKind>;
}

/** The tool registry (4.8): Python, OpenAPI and API tools in SQLite, MCP servers from the tool-server list. */
export function createToolsService(deps: ToolsServiceDeps) {
  const { repo, secrets, clock, servers, kinds } = deps;

  function kindOf(type: string): ToolKind {
    const kind = kinds[type as Exclude<ToolType, 'mcp'>];
    if (!kind) throw badRequest(`Unknown tool type '${type}'`, 'INVALID_TOOL_CONFIG');
    return kind;
  }

  async function readable(caller: ToolsCaller, row: ToolRow): Promise<boolean> {
    const principal = await deps.principal(caller);
    return canAccess(principal, { user_id: row.user_id, access_control: readJson<AccessControl>(row.access_control, null) ?? undefined }, 'read');
  }

  async function storeKey(id: string, apiKey: string | undefined): Promise<void> {
    if (apiKey) await secrets.set(apiKeyName(id), apiKey);
    else await secrets.delete(apiKeyName(id));
  }

  return {
    /** Tools the caller may read, then every enabled MCP server with the caller's `authenticated`. */
    async list(caller: ToolsCaller): Promise<ToolListEntry[]> {
      const own: ToolListEntry[] = [];
      for (const row of await repo.all()) if (await readable(caller, row)) own.push(presentToolEntry(row));
      const mcp = await Promise.all(
        (await servers.mcpServers()).map(async (server): Promise<ToolListEntry> => ({
          id: `${MCP_TOOL_PREFIX}${server.info.id}`,
          name: server.info.name || server.info.id || server.url,
          type: 'mcp',
          description: server.info.description ?? '',
          enabled: true,
          meta: { description: server.info.description ?? '' },
          authenticated: await servers.authenticated(server, caller),
          created_at: 0,
        })),
      );
      return [...own, ...mcp];
    },

    /** Creates a tool (admins only, checked by the route). An invalid config is a 400 naming the problem. */
    async create(caller: ToolsCaller, body: ToolCreateRequest) {
      if (body.type === 'mcp') throw badRequest("MCP tools come from the tool-server list: add the server with POST /api/v1/configs/tool_servers (type 'mcp')", 'INVALID_TOOL_CONFIG');
      const prepared = await kindOf(body.type).prepare(body.config, { name: body.name, description: body.description });
      const now = clock.now();
      const id = body.id ?? newId();
      const row = await onUniqueViolation(
        () =>
          repo.insert({
            id,
            user_id: caller.id,
            name: body.name,
            type: body.type,
            description: body.description,
            config: writeJson(prepared.config),
            specs: writeJson(prepared.specs),
            access_control: body.access_control === null || body.access_control === undefined ? null : writeJson(body.access_control),
            created_at: now,
            updated_at: now,
          }),
        () => conflict(`A tool with id '${id}' already exists`, 'TOOL_ID_TAKEN'),
      );
      await storeKey(id, prepared.apiKey);
      return { id: row.id, name: row.name, type: row.type as ToolType, description: row.description, specs: prepared.specs, created_at: row.created_at };
    },

    /** One tool; 404 when missing or not readable. MCP servers answer as `server:mcp:<id>`. */
    async get(caller: ToolsCaller, id: string): Promise<ToolResponse> {
      if (id.startsWith(MCP_TOOL_PREFIX)) {
        const server = await servers.findMcp(id.slice(MCP_TOOL_PREFIX.length));
        if (!server) throw notFound('Tool not found', 'TOOL_NOT_FOUND');
        return {
          id,
          name: server.info.name || server.info.id || server.url,
          type: 'mcp',
          description: server.info.description ?? '',
          config: { url: server.url, auth_type: server.auth_type, enabled: true },
          specs: [],
          access_control: null,
          created_at: 0,
          updated_at: 0,
        };
      }
      const row = await repo.findById(id);
      if (!row || !(await readable(caller, row))) throw notFound('Tool not found', 'TOOL_NOT_FOUND');
      return presentTool(row, caller.role === 'admin' ? await secrets.get(apiKeyName(id)) : undefined);
    },

    /** Replaces a tool's config (checked like at creation); `api_key` left out keeps the stored key. */
    async update(caller: ToolsCaller, id: string, body: ToolUpdateRequest) {
      const row = await repo.findById(id);
      if (!row) throw notFound('Tool not found', 'TOOL_NOT_FOUND');
      const name = body.name ?? row.name;
      const description = body.description ?? row.description;
      const prepared = await kindOf(row.type).prepare(body.config, { name, description });
      const updated = await repo.update(id, {
        name,
        description,
        config: writeJson(prepared.config),
        specs: writeJson(prepared.specs),
        ...(body.access_control !== undefined ? { access_control: body.access_control === null ? null : writeJson(body.access_control) } : {}),
        updated_at: Math.max(clock.now(), row.updated_at + 1),
      });
      if (!updated) throw notFound('Tool not found', 'TOOL_NOT_FOUND');
      if ('api_key' in body.config) await storeKey(id, prepared.apiKey);
      const apiKey = await secrets.get(apiKeyName(id));
      return { id, config: apiKey && caller.role === 'admin' ? { ...prepared.config, api_key: apiKey } : prepared.config };
    },

    /** Deletes a tool and its key. */
    async remove(id: string): Promise<true> {
      if (!(await repo.remove(id))) throw notFound('Tool not found', 'TOOL_NOT_FOUND');
      await secrets.delete(apiKeyName(id));
      return true;
    },

    /** Before a user is deleted: their tools go with them (cascade), so note the keys to drop after. */
    async keysOfUser(userId: string): Promise<string[]> {
      return (await repo.idsOfUser(userId)).map(apiKeyName);
    },

    /** A stored tool the caller may use in a chat, ready for its kind; undefined when missing, off or not readable. */
    async usable(caller: ToolsCaller, id: string): Promise<{ stored: StoredTool; kind: ToolKind } | undefined> {
      const row = await repo.findById(id);
      if (!row || !isToolEnabled(row) || !(await readable(caller, row))) return undefined;
      const stored: StoredTool = {
        id: row.id,
        name: row.name,
        description: row.description,
        config: configOf(row),
        specs: specsOf(row),
        apiKey: (await secrets.get(apiKeyName(id))) ?? undefined,
        updatedAt: row.updated_at,
      };
      return { stored, kind: kindOf(row.type) };
    },
  };
}
export type ToolsService = ReturnType<typeof createToolsService>;
