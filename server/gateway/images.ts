import type { V1ImageGenerationRequest, V1ImagesResponse } from '../contracts/images';
import type { RouteUser } from '../platform/http/route';

/** What `/v1/images/generations` needs of the images domain. */
export interface V1ImagesDeps {
  generate(user: RouteUser, request: { prompt: string; model?: string | null; size?: string | null; n: number }, options: { signal: AbortSignal }): Promise<Array<{ url: string; id?: string }>>;
  bytes(fileId: string): Promise<Buffer>;
}

/**
 * `POST /v1/images/generations` in OpenAI's shape: `b64_json` (the default here) inlines each
 * image; `url` answers Parley's file URL (fetched with the caller's credentials).
 */
export async function imageGenerations(deps: V1ImagesDeps, user: RouteUser, body: V1ImageGenerationRequest, signal: AbortSignal, now: () => number): Promise<V1ImagesResponse> {
  const made = await deps.generate(user, { prompt: body.prompt, model: body.model, size: body.size, n: body.n ?? 1 }, { signal });
  const asUrl = body.response_format === 'url';
  return {
    created: now(),
    data: await Promise.all(made.map(async (image) => (asUrl || !image.id ? { url: image.url } : { b64_json: (await deps.bytes(image.id)).toString('base64') }))),
  };
}
