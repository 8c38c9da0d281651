import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { GeneratedImage, ImageEditRequest, ImageGenerationRequest, ImageModel, ImagesConfig } from '../contracts/images';
import type { MessageStepFile } from '../contracts/chats';
import { fileContentUrl, type FilesService } from '../files';
import { badRequest, forbidden, HttpError } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import { automatic1111 } from './engines/automatic1111';
import { comfyui } from './engines/comfyui';
import { ImageEngineError, type EngineImage, type EngineNet, type ImageEngineClient } from './engines/engine';
import { openAiImages } from './engines/openai-images';
import type { ImagesSettings } from './images-settings';

/** Who asks for an image. */
export interface ImageCaller {
  id: string;
  role: string;
}

/** How a generation is followed: progress (0..1) and cancelling. */
export interface ImageRunOptions {
  progress?(done: number): void;
  signal?: AbortSignal;
}

/** The engine the settings choose, with its URL and key. */
export function engineOf(config: ImagesConfig, net: EngineNet): ImageEngineClient {
  switch (config.IMAGE_GENERATION_ENGINE) {
    case 'openai':
      return openAiImages({ baseUrl: config.IMAGES_OPENAI_API_BASE_URL, apiKey: config.IMAGES_OPENAI_API_KEY }, net);
    case 'comfyui':
      return comfyui({ baseUrl: config.COMFYUI_BASE_URL, apiKey: config.COMFYUI_API_KEY, workflow: config.COMFYUI_WORKFLOW, nodes: config.COMFYUI_WORKFLOW_NODES }, net);
    case 'automatic1111':
      return automatic1111({ baseUrl: config.AUTOMATIC1111_BASE_URL, apiAuth: config.AUTOMATIC1111_API_AUTH }, net);
  }
}

/** WIDTHxHEIGHT of a request, else of the settings, else 512×512. */
export function sizeOf(requested: string | null | undefined, configured: string): { width: number; height: number } {
  for (const size of [requested, configured]) {
    const match = size ? /^(\d{2,5})x(\d{2,5})$/.exec(size) : null;
    if (match) return { width: Number(match[1]), height: Number(match[2]) };
  }
  return { width: 512, height: 512 };
}

/** An engine failure as the caller reads it: 400 naming the engine's words (as Open WebUI answers), an offline refusal as it is. */
function engineFailure(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ImageEngineError) return badRequest(`The image engine failed: ${error.message}`, 'IMAGE_ENGINE_FAILED');
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return badRequest(`Could not reach the image engine: ${why}`, 'IMAGE_ENGINE_UNREACHABLE');
}

/**
 * Image generation: the engine the admin chose (OpenAI-compatible images, ComfyUI,
 * Automatic1111), each image stored as the caller's file (typed and checked like an upload) and
 * answered as `{url}` on Parley's own file route.
 */
export function createImagesService(deps: { settings: ImagesSettings; files: FilesService; net: EngineNet; log: Logger }) {
  async function store(user: ImageCaller, images: EngineImage[], meta: Record<string, unknown>): Promise<Array<GeneratedImage & { file: MessageStepFile }>> {
    const out: Array<GeneratedImage & { file: MessageStepFile }> = [];
    for (const [i, image] of images.entries()) {
      const ext = image.type?.includes('jpeg') ? 'jpg' : image.type?.includes('webp') ? 'webp' : 'png';
      const row = await deps.files.create({ userId: user.id, filename: `image-${Date.now()}-${i + 1}.${ext}`, stream: Readable.from([Buffer.from(image.bytes)]), purpose: 'image', meta });
      if (!row.mime_type.startsWith('image/')) {
        await deps.files.delete(row);
        throw badRequest('The image engine answered something that is not an image', 'IMAGE_ENGINE_FAILED');
      }
      const url = fileContentUrl(row.id);
      out.push({ url, id: row.id, file: { id: row.id, name: row.filename, type: row.mime_type, size: row.size, url } });
    }
    return out;
  }

  async function enabledConfig(): Promise<ImagesConfig> {
    const config = await deps.settings.resolved();
    if (!config.ENABLE_IMAGE_GENERATION) throw forbidden('Image generation is turned off', 'IMAGE_GENERATION_DISABLED');
    return config;
  }

  return {
    /** Throws 403 while image generation is off. */
    enabledConfig,

    /** Whether images can be made, and edited (for `/api/config`). */
    async features(): Promise<{ enable_image_generation: boolean; enable_image_edit: boolean }> {
      const config = await deps.settings.view();
      return { enable_image_generation: config.ENABLE_IMAGE_GENERATION, enable_image_edit: config.ENABLE_IMAGE_GENERATION && config.ENABLE_IMAGE_EDIT };
    },

    /** The models the chosen engine offers; 400 when it cannot be asked. */
    async models(): Promise<ImageModel[]> {
      const config = await deps.settings.resolved();
      try {
        return await engineOf(config, deps.net).models();
      } catch (error) {
        throw engineFailure(error);
      }
    },

    /** Makes `n` images from a prompt; answers their Parley URLs (403 when off, 400 when the engine fails). */
    async generate(user: ImageCaller, request: ImageGenerationRequest, options: ImageRunOptions = {}): Promise<Array<GeneratedImage & { file: MessageStepFile }>> {
      const config = await enabledConfig();
      const { width, height } = sizeOf(request.size, config.IMAGE_SIZE);
      const model = request.model || config.IMAGE_GENERATION_MODEL;
      let images: EngineImage[];
      try {
        images = await engineOf(config, deps.net).generate({
          prompt: request.prompt,
          model,
          width,
          height,
          n: request.n,
          steps: request.steps ?? (config.IMAGE_STEPS || undefined),
          negativePrompt: request.negative_prompt ?? undefined,
          signal: options.signal,
          progress: options.progress,
        });
      } catch (error) {
        throw engineFailure(error);
      }
      return store(user, images.slice(0, request.n), { source: 'image_generation', engine: config.IMAGE_GENERATION_ENGINE, model, prompt: request.prompt.slice(0, 500) });
    },

    /** Changes one of the caller's images with a prompt (403 when off, 404/403 for an image not theirs). */
    async edit(user: ImageCaller, request: ImageEditRequest, options: ImageRunOptions = {}): Promise<Array<GeneratedImage & { file: MessageStepFile }>> {
      const config = await enabledConfig();
      if (!config.ENABLE_IMAGE_EDIT) throw forbidden('Editing images is turned off', 'IMAGE_EDIT_DISABLED');
      const id = /^\/api\/v1\/files\/([^/]+)\/content$/.exec(request.image)?.[1] ?? request.image;
      const row = await deps.files.requireReadable(user, decodeURIComponent(id));
      if (!row.mime_type.startsWith('image/') || row.mime_type === 'image/svg+xml') throw badRequest('Only PNG, JPEG and WebP images can be edited', 'NOT_AN_IMAGE');
      const bytes = new Uint8Array(await readFile(deps.files.pathOf(row.id)));
      const { width, height } = sizeOf(request.size, config.IMAGE_SIZE);
      const model = request.model || config.IMAGE_GENERATION_MODEL;
      let images: EngineImage[];
      try {
        images = await engineOf(config, deps.net).edit({
          prompt: request.prompt,
          model,
          width,
          height,
          n: request.n ?? 1,
          steps: config.IMAGE_STEPS || undefined,
          image: { bytes, type: row.mime_type, name: row.filename },
          signal: options.signal,
          progress: options.progress,
        });
      } catch (error) {
        throw engineFailure(error);
      }
      return store(user, images.slice(0, request.n ?? 1), { source: 'image_edit', engine: config.IMAGE_GENERATION_ENGINE, model, prompt: request.prompt.slice(0, 500), from: row.id });
    },
  };
}
export type ImagesService = ReturnType<typeof createImagesService>;
