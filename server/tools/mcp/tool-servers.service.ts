import { z } from 'zod';
import { defineSection, type ConfigService } from '../../config';
import { ToolServerConnection, type ToolServersConfig, type ToolServerVerifyRequest, type ToolServerVerifyResponse } from '../../contracts/tools';
import { badRequest, forbidden } from '../../platform/http/errors';
import { randomToken } from '../../platform/ids';
import type { Logger } from '../../platform/log';
import type { SecretStore } from '../../secrets';
import { loadOpenApi } from '../openapi/openapi-spec';
import { connectMcp, McpAuthError, type McpConnection } from './mcp-client';
import { OAUTH_CALLBACK_PATH, serverSecretPrefix, type McpOAuth } from './oauth';
import { offlineRefusal } from '../../platform/net/outbound';

/** Stored list: connections without their keys (keys live in the secret store). */
export const ToolServersSection = defineSection('tool_servers', z.object({ TOOL_SERVER_CONNECTIONS: z.array(ToolServerConnection) }), { TOOL_SERVER_CONNECTIONS: [] });

const keyName = (serverId: string) => `${serverSecretPrefix(serverId)}key`;
/** Where a user's own OAuth login token would be kept (auth_type `system_oauth`). */
export const userOAuthTokenName = (userId: string) => `user-oauth:${userId}`;

/** Who is using a server: the caller and the credential they came with. */
export interface ServerCaller {
  id: string;
  /** The caller's bearer credential (JWT or API key), for auth_type `session`. */
  credential?: string;
}

/** The caller must authorize the server first; `authorizationUrl` is where, when known. */
export class AuthorizationRequired extends Error {
  constructor(
    readonly serverId: string,
    readonly authorizationUrl: string | undefined,
  ) {
    super(authorizationUrl ? `Authorization needed: open ${authorizationUrl} to connect this server` : 'Authorization needed: connect this server from the Tools page');
    this.name = 'AuthorizationRequired';
  }
}

/** True when the entry is switched on. */
export function isEnabled(server: ToolServerConnection): boolean {
  return server.enable && server.config?.enable !== false;
}

/**
 * The tool-server list (TOOL_SERVER_CONNECTIONS) and sessions with its MCP servers. Posting a
 * list replaces the stored one; entries that disappear lose their key, OAuth client
 * registration and every user's tokens.
 */
export function createToolServers(deps: { config: ConfigService; secrets: SecretStore; oauth: McpOAuth; log: Logger }) {
  const { config, secrets, oauth, log } = deps;
  /** The last origin Parley was reached at, for OAuth redirect URLs started outside a request. */
  let lastOrigin: string | undefined;

  async function stored(): Promise<ToolServerConnection[]> {
    return (await config.get(ToolServersSection)).TOOL_SERVER_CONNECTIONS;
  }

  async function headersFor(server: ToolServerConnection, caller: ServerCaller, origin?: string): Promise<Record<string, string>> {
    const id = server.info.id ?? '';
    switch (server.auth_type) {
      case 'bearer': {
        const key = (await secrets.get(keyName(id))) ?? server.key ?? '';
        return key ? { authorization: `Bearer ${key}` } : {};
      }
      case 'session':
        return caller.credential ? { authorization: `Bearer ${caller.credential}` } : {};
      case 'system_oauth': {
        const token = await secrets.get(userOAuthTokenName(caller.id));
        return token ? { authorization: `Bearer ${token}` } : {};
      }
      case 'oauth_2.1': {
        const target = { id, url: server.url };
        const token = await oauth.accessToken(target, caller.id);
        if (token) return { authorization: `Bearer ${token}` };
        const base = origin ?? lastOrigin;
        const redirect = base ? `${base}${OAUTH_CALLBACK_PATH}` : await oauth.registeredRedirect(id);
        let url: string | undefined;
        if (redirect) {
          try {
            url = (await oauth.authorizationUrl(target, caller.id, redirect)) ?? undefined;
          } catch (error) {
            log.warn({ err: error, server: id }, 'starting MCP OAuth failed');
          }
          if (url === undefined && (await oauth.accessToken(target, caller.id))) return headersFor(server, caller, origin);
        }
        throw new AuthorizationRequired(id, url);
      }
      default:
        return {};
    }
  }

  return {
    /** The list with keys merged back, for admins. */
    async get(): Promise<ToolServersConfig> {
      const list = await stored();
      const withKeys = await Promise.all(list.map(async (server) => (server.info.id && server.auth_type === 'bearer' ? { ...server, key: (await secrets.get(keyName(server.info.id))) ?? server.key } : server)));
      return { TOOL_SERVER_CONNECTIONS: withKeys };
    },

    /** Replaces the list. Keys go to the secret store; removed servers lose every secret. */
    async set(next: ToolServersConfig): Promise<ToolServersConfig> {
      const before = await stored();
      const entries = next.TOOL_SERVER_CONNECTIONS.map((server) => (server.info.id ? server : { ...server, info: { ...server.info, id: `server-${randomToken(6)}` } }));
      for (const server of entries) {
        const id = server.info.id!;
        if (server.auth_type === 'bearer' && server.key) await secrets.set(keyName(id), server.key);
        else await secrets.delete(keyName(id));
      }
      const kept = new Set(entries.map((s) => s.info.id));
      for (const old of before) {
        const id = old.info.id;
        if (!id) continue;
        const replacement = entries.find((s) => s.info.id === id);
        // Gone, or pointed elsewhere / switched away from OAuth: its registration and tokens are void.
        if (!kept.has(id) || (old.auth_type === 'oauth_2.1' && (replacement?.auth_type !== 'oauth_2.1' || replacement.url !== old.url))) {
          await oauth.forget(id);
          if (replacement?.auth_type === 'bearer' && replacement.key) await secrets.set(keyName(id), replacement.key);
        }
      }
      await config.set(ToolServersSection, { TOOL_SERVER_CONNECTIONS: entries.map((s) => ({ ...s, key: null })) });
      return this.get();
    },

    /** Enabled MCP servers. */
    async mcpServers(): Promise<ToolServerConnection[]> {
      return (await stored()).filter((s) => s.type === 'mcp' && isEnabled(s) && s.info.id);
    },

    /** An enabled MCP server by id. */
    async findMcp(id: string): Promise<ToolServerConnection | undefined> {
      return (await this.mcpServers()).find((s) => s.info.id === id);
    },

    /** Whether the caller can use the server without authorizing first. */
    async authenticated(server: ToolServerConnection, caller: ServerCaller): Promise<boolean> {
      if (server.auth_type === 'oauth_2.1') return oauth.hasTokens(server.info.id ?? '', caller.id);
      if (server.auth_type === 'system_oauth') return (await secrets.get(userOAuthTokenName(caller.id))) !== null;
      return true;
    },

    /** Opens a session as `caller`; AuthorizationRequired when an OAuth server needs the user first. */
    async connect(server: ToolServerConnection, caller: ServerCaller, origin?: string): Promise<McpConnection> {
      // OAuth: refreshes first when the token is about to expire, or asks the user to authorize.
      const headers = await headersFor(server, caller, origin);
      const id = server.info.id ?? '';
      if (server.auth_type !== 'oauth_2.1') return connectMcp(server.url, { headers });
      // The transport sends the (fresh) token itself, and refreshes once if the server still says 401.
      const authProvider = await oauth.transportProvider({ id, url: server.url }, caller.id);
      try {
        return await connectMcp(server.url, { authProvider });
      } catch (error) {
        if (error instanceof McpAuthError && server.auth_type === 'oauth_2.1') throw new AuthorizationRequired(id, undefined);
        throw error;
      }
    },

    /** Starts OAuth for the caller; null when they are already authorized. */
    async authorize(serverId: string, caller: ServerCaller, origin: string): Promise<string | null> {
      const server = await this.findMcp(serverId);
      if (!server || server.auth_type !== 'oauth_2.1') return Promise.reject(badRequest(`'${serverId}' is not an enabled MCP server with auth_type oauth_2.1`));
      lastOrigin = origin;
      if (await oauth.accessToken({ id: serverId, url: server.url }, caller.id)) return null;
      return oauth.authorizationUrl({ id: serverId, url: server.url }, caller.id, `${origin}${OAUTH_CALLBACK_PATH}`);
    },

    /** Remembers where Parley is reached, for OAuth redirects started from a chat. */
    noteOrigin(origin: string): void {
      lastOrigin = origin;
    },

    /** OAuth pieces: the callback's code exchange, sign-out, clean-up. */
    oauth,

    /**
     * Checks a server before it is saved: connects and lists its tools (MCP) or loads its
     * spec (OpenAPI). Unreachable → 400; credentials refused → 403.
     */
    async verify(request: ToolServerVerifyRequest, caller: ServerCaller): Promise<ToolServerVerifyResponse> {
      if (request.type === 'openapi') {
        const specUrl = new URL(request.path || 'openapi.json', `${request.url}/`).href;
        try {
          const api = await loadOpenApi(specUrl, { apiKey: request.auth_type === 'bearer' ? (request.key ?? undefined) : undefined });
          return { status: true, specs: api.operations.map((op) => ({ name: op.spec.name, description: op.spec.description, inputSchema: op.spec.parameters })) };
        } catch (error) {
          const refused = offlineRefusal(error);
          if (refused) throw refused;
          const message = error instanceof Error ? error.message : 'unknown error';
          if (/HTTP 40[13]/.test(message)) throw forbidden(`The server refused the credentials: ${message}`);
          throw badRequest(`Could not load the OpenAPI document at ${specUrl}: ${message}`);
        }
      }
      let headers: Record<string, string> = {};
      if (request.auth_type === 'bearer' && request.key) headers = { authorization: `Bearer ${request.key}` };
      if (request.auth_type === 'session' && caller.credential) headers = { authorization: `Bearer ${caller.credential}` };
      if (request.auth_type === 'oauth_2.1') {
        const configured = (await stored()).find((s) => (request.info?.id ? s.info.id === request.info.id : s.url === request.url) && s.auth_type === 'oauth_2.1');
        const token = configured?.info.id ? await oauth.accessToken({ id: configured.info.id, url: configured.url }, caller.id) : undefined;
        if (token) headers = { authorization: `Bearer ${token}` };
      }
      let connection: McpConnection;
      try {
        connection = await connectMcp(request.url, { headers, timeoutMs: 10_000 });
      } catch (error) {
        const refused = offlineRefusal(error);
        if (refused) throw refused;
        if (error instanceof McpAuthError) {
          throw forbidden(request.auth_type === 'oauth_2.1' ? 'The server needs OAuth authorization: save it, then connect from the Tools page' : `Authentication failed: ${error.message}`);
        }
        throw badRequest(`Could not connect to the MCP server at ${request.url}: ${error instanceof Error ? error.message : 'unknown error'}`);
      }
      try {
        const tools = await connection.listTools();
        return { status: true, specs: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) };
      } catch (error) {
        throw badRequest(`The MCP server did not list its tools: ${error instanceof Error ? error.message : 'unknown error'}`);
      } finally {
        await connection.close();
      }
    },
  };
}
export type ToolServers = ReturnType<typeof createToolServers>;
