import { Router, type RequestHandler } from 'express';
import { authOf, requireUser } from '../session';
import { V1ChatCompletionRequest, V1EmbeddingsRequest, type V1ModelList } from '../contracts/openai';
import type { Models } from '../models';
import type { Logger } from '../platform/log';
import { notFound } from '../platform/http/errors';
import { validateBody } from '../platform/http/validate';
import { chatCompletions, type ChatCompletionsDeps } from './chat-completions';
import { embeddings, type EmbeddingsDeps } from './embeddings';
import { presentV1Model } from './models-list';
import { openAiErrorHandler, openAiNotFound } from './openai-errors';
import { v1RateLimit } from './rate-limit';

/** What the /v1 routes need. */
export interface GatewayRoutesDeps extends ChatCompletionsDeps, EmbeddingsDeps {
  models: Pick<Models, 'available'>;
  /** Requests per minute per key; 0 = unlimited. */
  rateLimit: number;
  log: Logger;
  /** `/v1/audio/*`: registers the audio endpoints with the gateway's guard. */
  audio?: (router: Router, guard: RequestHandler[]) => void;
}

/**
 * The OpenAI-compatible API, mounted at `/v1`: API keys (`Authorization: Bearer sk-…`) or
 * sessions, the caller's model access, errors in OpenAI's shape.
 */
export function gatewayRoutes(deps: GatewayRoutesDeps): Router {
  const router = Router();
  const guard: RequestHandler[] = [requireUser, v1RateLimit(deps.rateLimit)];

  router.get('/models', ...guard, async (req, res) => {
    const models = await deps.models.available(authOf(req).user);
    const body: V1ModelList = { object: 'list', data: models.map(presentV1Model) };
    res.json(body);
  });

  router.get('/models/*id', ...guard, async (req, res) => {
    const id = (req.params as { id: string[] }).id.join('/');
    const found = (await deps.models.available(authOf(req).user)).find((m) => m.id === id);
    if (!found) throw notFound(`Model not found: ${id}`, 'MODEL_NOT_FOUND');
    res.json(presentV1Model(found));
  });

  router.post('/chat/completions', ...guard, validateBody(V1ChatCompletionRequest, { status: 400 }), (req, res) => chatCompletions(deps, req, res));

  router.post('/embeddings', ...guard, validateBody(V1EmbeddingsRequest, { status: 400 }), (req, res) => embeddings(deps, req, res));

  deps.audio?.(router, guard);

  router.use(openAiNotFound);
  router.use(openAiErrorHandler(deps.log));
  return router;
}
