import { V1ImageGenerationRequest, V1ImagesResponse } from '../contracts/images';
import { V1ChatCompletion, V1ChatCompletionRequest, V1EmbeddingsRequest, V1EmbeddingsResponse, V1Model, V1ModelList } from '../contracts/openai';
import type { Models } from '../models';
import { notFound } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
import { chatCompletions, type ChatCompletionsDeps } from './chat-completions';
import { embeddings, type EmbeddingsDeps } from './embeddings';
import { imageGenerations, type V1ImagesDeps } from './images';
import { presentV1Model } from './models-list';
import type { RateLimit } from '../platform/http/account-rate-limit';

/** What the /v1 routes need. */
export interface GatewayRoutesDeps extends ChatCompletionsDeps, EmbeddingsDeps {
  models: Pick<Models, 'available'>;
  /** The per-account request limit (shared with `/api/chat/completions`). */
  rateLimit: RateLimit;
  /** Image generation (the images domain); refusals (off, no permission) come from it. */
  images: V1ImagesDeps & { enabled(): Promise<unknown> };
  /** More /v1 routes (`/v1/audio/*`), given the gateway's rate limit as their `authorize`. */
  more?: (rateLimit: RateLimit) => Routes;
}

/**
 * The OpenAI-compatible API, mounted at `/v1` (followed by `openAiFallbacks`): API keys
 * (`Authorization: Bearer sk-…`) or sessions, the caller's model access, a per-key rate limit
 * checked before the body, errors in OpenAI's shape.
 */
export function gatewayRoutes(deps: GatewayRoutesDeps): Routes {
  const { rateLimit } = deps;
  return [
    route({ method: 'get', path: '/models', guard: 'user', authorize: rateLimit, summary: 'Models the caller may use (OpenAI list)', response: V1ModelList }, async ({ user }) => ({
      object: 'list' as const,
      data: (await deps.models.available(user)).map(presentV1Model),
    })),
    route({ method: 'get', path: '/models/*id', guard: 'user', authorize: rateLimit, summary: 'One model the caller may use', response: V1Model }, async ({ user, params }) => {
      const id = params.id.join('/');
      const found = (await deps.models.available(user)).find((m) => m.id === id);
      if (!found) throw notFound(`Model not found: ${id}`, 'MODEL_NOT_FOUND');
      return presentV1Model(found);
    }),
    route(
      {
        method: 'post',
        path: '/chat/completions',
        guard: 'user',
        authorize: rateLimit,
        body: V1ChatCompletionRequest,
        invalid: 400,
        produces: 'json-or-event-stream',
        summary: 'OpenAI chat completion; `stream: true` answers `chat.completion.chunk` events ending with `data: [DONE]`',
        response: V1ChatCompletion,
      },
      async (ctx) => {
        await chatCompletions(deps, ctx);
        return undefined;
      },
    ),
    route(
      {
        method: 'post',
        path: '/images/generations',
        guard: 'user',
        permission: 'features.image_generation',
        authorize: async (ctx) => {
          await deps.images.enabled();
          await rateLimit(ctx);
        },
        body: V1ImageGenerationRequest,
        invalid: 400,
        summary: 'OpenAI image generation through the configured engine (b64_json by default)',
        response: V1ImagesResponse,
      },
      ({ user, body, res }) => {
        const stop = new AbortController();
        res.on('close', () => {
          if (!res.writableFinished) stop.abort();
        });
        return imageGenerations(deps.images, user, body, stop.signal, () => Math.floor(Date.now() / 1000));
      },
    ),
    route(
      { method: 'post', path: '/embeddings', guard: 'user', authorize: rateLimit, body: V1EmbeddingsRequest, invalid: 400, summary: 'Embeddings from the configured engine (float or base64)', response: V1EmbeddingsResponse },
      (ctx) => embeddings(deps, ctx),
    ),
    ...(deps.more?.(rateLimit) ?? []),
  ];
}
