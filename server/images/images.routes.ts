import type { Response } from 'express';
import { z } from 'zod';
import { GeneratedImage, ImageEditRequest, ImageGenerationRequest, ImageModel, ImagesConfig } from '../contracts/images';
import { badRequest } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
import { parseWorkflow } from './engines/comfyui-workflow';
import { ImageEngineError } from './engines/engine';
import type { ImagesService } from './images.service';
import type { ImagesSettings } from './images-settings';

/** Aborts when the client goes away before the answer is sent (the engine's work is cancelled). */
function leaving(res: Response): AbortController {
  const stop = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) stop.abort();
  });
  return stop;
}

/** Answers without Parley's internal `file` field. */
const urls = (images: Array<{ url: string; id?: string }>) => images.map(({ url, id }) => ({ url, ...(id ? { id } : {}) }));

/** Image generation on Open WebUI's paths. Mounted at `/api/v1/images`. */
export function imagesRoutes(deps: { settings: ImagesSettings; images: ImagesService }): Routes {
  const { settings, images } = deps;
  return [
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'Image generation settings (keys masked)', response: ImagesConfig }, () => settings.view()),
    route({ method: 'post', path: '/config/update', guard: 'admin', body: ImagesConfig, invalid: 400, summary: 'Replace the image generation settings (a masked key sent back keeps the stored one)', response: ImagesConfig }, ({ body }) => {
      try {
        parseWorkflow(body.COMFYUI_WORKFLOW, {});
      } catch (error) {
        if (error instanceof ImageEngineError) throw badRequest(error.message, 'INVALID_COMFYUI_WORKFLOW');
        throw error;
      }
      return settings.update(body);
    }),
    route({ method: 'get', path: '/config/url/verify', guard: 'admin', summary: 'Whether the chosen engine answers (it lists its models)', response: z.literal(true) }, async () => {
      await images.models();
      return true as const;
    }),
    route({ method: 'get', path: '/models', guard: 'user', summary: 'Models the chosen image engine offers', response: z.array(ImageModel) }, () => images.models()),
    route(
      {
        method: 'post',
        path: '/generations',
        guard: 'user',
        permission: 'features.image_generation',
        authorize: async () => void (await images.enabledConfig()),
        body: ImageGenerationRequest,
        invalid: 400,
        summary: 'Make images from a prompt: [{url}] of the caller’s stored files',
        response: z.array(GeneratedImage),
      },
      async ({ user, body, res }) => {
        const stop = leaving(res);
        return urls(await images.generate(user, body, { signal: stop.signal }));
      },
    ),
    route(
      {
        method: 'post',
        path: '/edit',
        guard: 'user',
        permission: 'features.image_generation',
        authorize: async () => void (await images.enabledConfig()),
        body: ImageEditRequest,
        invalid: 400,
        summary: 'Change one of the caller’s images with a prompt: [{url}]',
        response: z.array(GeneratedImage),
      },
      async ({ user, body, res }) => {
        const stop = leaving(res);
        return urls(await images.edit(user, body, { signal: stop.signal }));
      },
    ),
  ];
}
