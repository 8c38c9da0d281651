import { randomBytes } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { AuthService } from '../auth';
import { authOf, requireUser } from '../session';
import { GraphStatusQuery, GraphToggleRequest, type GraphStatusResponse } from '../contracts/graph';
import { validateBody, validateQuery } from '../platform/http/validate';
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
export function graphRoutes(deps: { graph: GraphService; auth: Pick<AuthService, 'authenticate'> }): Router {
  const { graph } = deps;
  const router = Router();
  const id = (params: Record<string, unknown>) => String(params.id);

  router.post('/:id/graph/toggle', requireUser, validateBody(GraphToggleRequest), async (req, res) => {
    res.json(await graph.toggle(authOf(req).user, id(req.params), (req.body as GraphToggleRequest).enabled));
  });

  router.get('/:id/graph/status', tokenFromQuery(deps.auth), requireUser, validateQuery(GraphStatusQuery), async (req, res) => {
    const query = res.locals.query as GraphStatusQuery;
    const knowledgeId = id(req.params);
    if (query.stream === 'false') {
      res.json(await graph.status(authOf(req).user, knowledgeId));
      return;
    }
    // Subscribe before reading, so no change between the two is lost.
    const queued: GraphStatusResponse[] = [];
    let deliver: (s: GraphStatusResponse) => void = (s) => queued.push(s);
    let finish = () => {};
    const unsubscribe = graph.subscribe(knowledgeId, (s) => deliver(s), () => finish());
    let first: GraphStatusResponse;
    try {
      first = await graph.status(authOf(req).user, knowledgeId);
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
  });

  router.get('/:id/graph/visualize', requireUser, async (req, res) => {
    const view = await graph.view(authOf(req).user, id(req.params));
    const nonce = randomBytes(16).toString('base64');
    const html = visualizePage(view, await forceGraphSource(), nonce);
    res.set({ 'content-security-policy': pageCsp(nonce), 'cache-control': 'no-store' }).type('html').send(html);
  });
  return router;
}
