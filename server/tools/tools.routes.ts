import { Router, type Request } from 'express';
import { z } from 'zod';
import { authOf, requireAdmin, requireUser } from '../session';
import { ToolCreateRequest, ToolServersConfig, ToolServerVerifyRequest, ToolUpdateRequest, type OAuthAuthorizeResponse } from '../contracts/tools';
import { publicOriginOf } from '../platform/http/public-origin';
import { validateBody, validateQuery } from '../platform/http/validate';
import type { ToolServers } from './mcp/tool-servers.service';
import type { ToolsCaller, ToolsService } from './tools.service';

const AS_400 = { status: 400 } as const;

function callerOf(req: Request): ToolsCaller {
  const { user, credential } = authOf(req);
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

/** Section 4.8, the tool registry and MCP OAuth. Mounted at `/api/v1/tools`. */
export function toolsRoutes(tools: ToolsService, servers: ToolServers): Router {
  const router = Router();

  router.get('/', requireUser, async (req, res) => {
    servers.noteOrigin(originOf(req));
    res.json(await tools.list(callerOf(req)));
  });

  router.post('/create', requireAdmin, validateBody(ToolCreateRequest, AS_400), async (req, res) => {
    res.json(await tools.create(callerOf(req), req.body as ToolCreateRequest));
  });

  /** The authorization server sends the user back here; `state` says who started it. No session needed. */
  router.get('/oauth/callback', validateQuery(CallbackQuery, AS_400), async (_req, res) => {
    const query = res.locals.query as z.infer<typeof CallbackQuery>;
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
  });

  /** Starts OAuth 2.1 for the caller: answers the URL to open, or null when already authorized. */
  router.post('/oauth/:server_id/authorize', requireUser, async (req, res) => {
    const url = await servers.authorize(String(req.params.server_id), callerOf(req), originOf(req));
    res.json({ authenticated: url === null, authorization_url: url } satisfies OAuthAuthorizeResponse);
  });

  /** Signs the caller out of an OAuth server: their tokens are dropped. */
  router.delete('/oauth/:server_id', requireUser, async (req, res) => {
    await servers.oauth.forgetUser(String(req.params.server_id), callerOf(req).id);
    res.json(true);
  });

  router.get('/:id', requireUser, async (req, res) => {
    res.json(await tools.get(callerOf(req), String(req.params.id)));
  });

  router.post('/:id/update', requireAdmin, validateBody(ToolUpdateRequest, AS_400), async (req, res) => {
    res.json(await tools.update(callerOf(req), String(req.params.id), req.body as ToolUpdateRequest));
  });

  router.delete('/:id', requireAdmin, async (req, res) => {
    res.json(await tools.remove(String(req.params.id)));
  });

  return router;
}

/** Section 4.8, the tool-server list. Mounted at `/api/v1/configs/tool_servers`. */
export function toolServersRoutes(servers: ToolServers): Router {
  const router = Router();
  router.get('/', requireAdmin, async (_req, res) => {
    res.json(await servers.get());
  });
  router.post('/', requireAdmin, validateBody(ToolServersConfig, AS_400), async (req, res) => {
    servers.noteOrigin(originOf(req));
    res.json(await servers.set(req.body as ToolServersConfig));
  });
  router.post('/verify', requireAdmin, validateBody(ToolServerVerifyRequest, AS_400), async (req, res) => {
    res.json(await servers.verify(req.body as ToolServerVerifyRequest, callerOf(req)));
  });
  return router;
}
