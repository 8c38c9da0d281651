import type { Request } from 'express';
import { z } from 'zod';
import {
  OAuthAuthorizeResponse,
  ToolCreated,
  ToolCreateRequest,
  ToolListEntry,
  ToolResponse,
  ToolServersConfig,
  ToolServerVerifyRequest,
  ToolServerVerifyResponse,
  ToolUpdated,
  ToolUpdateRequest,
} from '../contracts/tools';
import { publicOriginOf } from '../platform/http/public-origin';
import { route, type RouteAuth, type Routes } from '../platform/http/route';
import type { ToolServers } from './mcp/tool-servers.service';
import type { ToolsCaller, ToolsService } from './tools.service';

function callerOf({ user, credential }: RouteAuth): ToolsCaller {
  return { id: user.id, role: user.role, credential };
}

/** Where this request reached Parley, for OAuth redirect URLs: PARLEY_PUBLIC_URL or the listener's own address, never the Host header. */
function originOf(req: Request): string {
  return publicOriginOf(req, (req.app.locals.publicUrls as string[] | undefined) ?? []);
}

const CallbackQuery = z.object({ state: z.string().min(1).max(500).optional(), code: z.string().min(1).max(5000).optional(), error: z.string().max(500).optional(), error_description: z.string().max(2000).optional() });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function page(title: string, message: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:40em;margin:4em auto"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

/** Section 4.8, the tool registry and MCP OAuth. Mounted at `/api/v1/tools`. Invalid bodies answer 400. */
export function toolsRoutes(tools: ToolsService, servers: ToolServers): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'user', summary: 'Tools the caller may use (Python, OpenAPI, MCP)', response: z.array(ToolListEntry) }, ({ req, auth }) => {
      servers.noteOrigin(originOf(req));
      return tools.list(callerOf(auth));
    }),
    route({ method: 'post', path: '/create', guard: 'admin', body: ToolCreateRequest, invalid: 400, summary: 'Create a tool', response: ToolCreated }, ({ auth, body }) => tools.create(callerOf(auth), body)),

    // The authorization server sends the user back here; `state` says who started it. No session needed.
    route(
      { method: 'get', path: '/oauth/callback', guard: 'public', query: CallbackQuery, invalid: 400, produces: 'html', summary: 'OAuth 2.1 redirect target of MCP tool servers' },
      async ({ res, query }) => {
        if (query.error || !query.state || !query.code) {
          res.status(400).type('html').send(page('Not connected', `The server did not grant access${query.error ? `: ${query.error_description ?? query.error}` : ''}.`));
          return;
        }
        try {
          await servers.oauth.finish(query.state, query.code);
        } catch (error) {
          res.status(400).type('html').send(page('Not connected', error instanceof Error ? error.message : 'The authorization failed'));
          return;
        }
        res.type('html').send(page('Connected', 'The tool server is connected. You can close this window and go back to Parley.'));
      },
    ),

    // Starts OAuth 2.1 for the caller: answers the URL to open, or null when already authorized.
    route(
      { method: 'post', path: '/oauth/:server_id/authorize', guard: 'user', summary: 'Start authorizing an MCP tool server for the caller', response: OAuthAuthorizeResponse },
      async ({ req, auth, params }) => {
        const url = await servers.authorize(params.server_id, callerOf(auth), originOf(req));
        return { authenticated: url === null, authorization_url: url };
      },
    ),
    // Signs the caller out of an OAuth server: their tokens are dropped.
    route({ method: 'delete', path: '/oauth/:server_id', guard: 'user', summary: 'Forget the caller’s tokens for an MCP tool server', response: z.boolean() }, async ({ user, params }) => {
      await servers.oauth.forgetUser(params.server_id, user.id);
      return true;
    }),

    route({ method: 'get', path: '/:id', guard: 'user', summary: 'A tool', response: ToolResponse }, ({ auth, params }) => tools.get(callerOf(auth), params.id)),
    route({ method: 'post', path: '/:id/update', guard: 'admin', body: ToolUpdateRequest, invalid: 400, summary: 'Update a tool’s configuration', response: ToolUpdated }, ({ auth, params, body }) =>
      tools.update(callerOf(auth), params.id, body),
    ),
    route({ method: 'delete', path: '/:id', guard: 'admin', summary: 'Delete a tool', response: z.boolean() }, ({ params }) => tools.remove(params.id)),
  ];
}

/** Section 4.8, the tool-server list. Mounted at `/api/v1/configs/tool_servers`. */
export function toolServersRoutes(servers: ToolServers): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', summary: 'Tool server connections', response: ToolServersConfig }, () => servers.get()),
    route({ method: 'post', path: '/', guard: 'admin', body: ToolServersConfig, invalid: 400, summary: 'Replace the tool server connections', response: ToolServersConfig }, ({ req, body }) => {
      servers.noteOrigin(originOf(req));
      return servers.set(body);
    }),
    route(
      { method: 'post', path: '/verify', guard: 'admin', body: ToolServerVerifyRequest, invalid: 400, summary: 'Check a tool server and list its tools', response: ToolServerVerifyResponse },
      ({ auth, body }) => servers.verify(body, callerOf(auth)),
    ),
  ];
}
