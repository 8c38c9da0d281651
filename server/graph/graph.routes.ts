import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AuthService } from '../auth';
import { GraphStatusQuery, GraphStatusResponse, GraphToggleRequest, GraphToggleResponse } from '../contracts/graph';
import { route, type Routes } from '../platform/http/route';
import { forceGraphSource } from './graph-library';
import type { GraphService } from './graph.service';
import { pageCsp, visualizePage } from './visualize-page';

/** Keep-alive comment interval of the status stream. */
const HEARTBEAT_MS = 15_000;

/** Section 5 point 5: EventSource clients cannot send headers, so the status stream also takes `?token=`. */
function tokenFromQuery(auth: Pick<AuthService, 'authenticate'>): RequestHandler {
  return async (req, _res, next) => {
    const token = req.query.token;
    if (!req.auth && typeof token === 'string' && token.length > 0) {
      const result = await auth.authenticate(token);
      if (typeof result !== 'string') req.auth = result;
    }
    next();
  };
}

/** Section 4.6 graph rows. Mounted at `/api/knowledge` and `/api/v1/knowledge`, after the knowledge routes. */
export function graphRoutes(deps: { graph: GraphService; auth: Pick<AuthService, 'authenticate'> }): Routes {
  const { graph } = deps;
  return [
    route({ method: 'post', path: '/:id/graph/toggle', guard: 'user', body: GraphToggleRequest, summary: 'Turn the knowledge graph on or off', response: GraphToggleResponse }, ({ user, params, body }) =>
      graph.toggle(user, params.id, body.enabled),
    ),
    route(
      {
        method: 'get',
        path: '/:id/graph/status',
        guard: 'user',
        before: [tokenFromQuery(deps.auth)],
        query: GraphStatusQuery,
        produces: 'json-or-event-stream',
        summary: 'Knowledge graph build status (`stream=true`: Server-Sent Events)',
        response: GraphStatusResponse,
      },
      async ({ res, user, params, query }) => {
        const knowledgeId = params.id;
        if (query.stream === 'false') return graph.status(user, knowledgeId);
        // Subscribe before reading, so no change between the two is lost.
        const queued: GraphStatusResponse[] = [];
        let deliver: (s: GraphStatusResponse) => void = (s) => queued.push(s);
        let finish = () => {};
        const unsubscribe = graph.subscribe(knowledgeId, (s) => deliver(s), () => finish());
        let first: GraphStatusResponse;
        try {
          first = await graph.status(user, knowledgeId);
        } catch (error) {
          unsubscribe();
          throw error;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
        let closed = false;
        const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
        finish = () => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          unsubscribe();
          res.end();
        };
        res.on('close', finish);
        let last = -1;
        deliver = (s) => {
          if (closed) return;
          // Progress never goes down within one stream.
          const event = s.status === 'building' ? { ...s, progress: Math.max(s.progress, last) } : s;
          last = event.progress;
          res.write(`data: ${JSON.stringify(event)}\n\n`);
          if (s.status !== 'building') finish();
        };
        deliver(first);
        for (const s of queued) deliver(s);
        return undefined;
      },
    ),
    route({ method: 'get', path: '/:id/graph/visualize', guard: 'user', produces: 'html', summary: 'The knowledge graph as an HTML page' }, async ({ res, user, params }) => {
      const view = await graph.view(user, params.id);
      const nonce = randomBytes(16).toString('base64');
      const html = visualizePage(view, await forceGraphSource(), nonce);
      res.set({ 'content-security-policy': pageCsp(nonce), 'cache-control': 'no-store' }).type('html').send(html);
    }),
  ];
}
