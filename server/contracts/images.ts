import { z } from 'zod';

/** The image engines Parley speaks to. */
export const ImageEngine = z.enum(['openai', 'comfyui', 'automatic1111']);
export type ImageEngine = z.infer<typeof ImageEngine>;

/** A ComfyUI node mapping: which workflow node inputs get the prompt, the model, the size… (Open WebUI's shape). */
export const ComfyUINode = z.object({
  /** `prompt`, `negative_prompt`, `model`, `width`, `height`, `n`, `steps`, `seed`, `image`; absent: set `value` as is. */
  type: z.string().max(40).nullable().optional(),
  node_ids: z.array(z.string().max(40)).max(20).default([]),
  /** The input name in the node (`text`, `ckpt_name`, `width`…). */
  key: z.string().max(80).nullable().optional(),
  value: z.string().max(10_000).nullable().optional(),
});
export type ComfyUINode = z.infer<typeof ComfyUINode>;

const Url = z.string().trim().max(2000).refine((value) => value === '' || /^https?:\/\/[^\s/]+/i.test(value), { message: 'must be an http(s) URL' });
const Size = z
  .string()
  .trim()
  .max(20)
  .refine((value) => value === '' || value === 'auto' || /^\d{2,5}x\d{2,5}$/.test(value), { message: "must be WIDTHxHEIGHT (e.g. 512x512), 'auto' or empty" });

/**
 * Image generation settings in Open WebUI's shape (`GET /api/v1/images/config`,
 * `POST /api/v1/images/config/update`). Keys (IMAGES_OPENAI_API_KEY, COMFYUI_API_KEY,
 * AUTOMATIC1111_API_AUTH) live in the secret store; reads show them masked, and posting the
 * masked value back keeps the stored one.
 */
export const ImagesConfig = z.object({
  ENABLE_IMAGE_GENERATION: z.boolean(),
  /** Let the task model turn the conversation into the image prompt. */
  ENABLE_IMAGE_PROMPT_GENERATION: z.boolean().default(true),
  IMAGE_GENERATION_ENGINE: ImageEngine,
  /** The engine's model (OpenAI `dall-e-3`, a ComfyUI or Automatic1111 checkpoint); empty = the engine's default. */
  IMAGE_GENERATION_MODEL: z.string().trim().max(300).default(''),
  IMAGE_SIZE: Size.default('512x512'),
  IMAGE_STEPS: z.number().int().min(0).max(500).default(20),
  IMAGES_OPENAI_API_BASE_URL: Url.default('https://api.openai.com/v1'),
  IMAGES_OPENAI_API_KEY: z.string().max(2000).default(''),
  AUTOMATIC1111_BASE_URL: Url.default(''),
  /** `user:password` for Automatic1111's --api-auth (sent as Basic auth). */
  AUTOMATIC1111_API_AUTH: z.string().max(2000).default(''),
  COMFYUI_BASE_URL: Url.default(''),
  COMFYUI_API_KEY: z.string().max(2000).default(''),
  /** The workflow in ComfyUI's API format (JSON text); empty = Parley's default text-to-image workflow. */
  COMFYUI_WORKFLOW: z.string().max(200_000).default(''),
  COMFYUI_WORKFLOW_NODES: z.array(ComfyUINode).max(50).default([]),
  /** "Edit this image" in chats, where the engine supports it (all three do). */
  ENABLE_IMAGE_EDIT: z.boolean().default(true),
});
export type ImagesConfig = z.infer<typeof ImagesConfig>;

/** A model an engine offers. */
export const ImageModel = z.object({ id: z.string(), name: z.string() });
export type ImageModel = z.infer<typeof ImageModel>;

/** Body of `POST /api/v1/images/generations`. */
export const ImageGenerationRequest = z.object({
  prompt: z.string().trim().min(1, 'must not be empty').max(4000),
  model: z.string().trim().max(300).nullish(),
  size: Size.nullish(),
  n: z.number().int().min(1).max(4).default(1),
  negative_prompt: z.string().max(4000).nullish(),
  steps: z.number().int().min(1).max(500).nullish(),
});
export type ImageGenerationRequest = z.infer<typeof ImageGenerationRequest>;

/** Body of `POST /api/v1/images/edit`: the image is one of the caller's files (id or its content URL). */
export const ImageEditRequest = z.object({
  image: z.string().trim().min(1).max(500),
  prompt: z.string().trim().min(1, 'must not be empty').max(4000),
  model: z.string().trim().max(300).nullish(),
  size: Size.nullish(),
  n: z.number().int().min(1).max(4).nullish(),
});
export type ImageEditRequest = z.infer<typeof ImageEditRequest>;

/** One image made, stored as the caller's file (Parley adds its `id`). */
export const GeneratedImage = z.object({ url: z.string(), id: z.string().optional() });
export type GeneratedImage = z.infer<typeof GeneratedImage>;

/** Body of `POST /v1/images/generations` (OpenAI's shape). */
export const V1ImageGenerationRequest = z.object({
  prompt: z.string().trim().min(1, 'must not be empty').max(4000),
  model: z.string().trim().max(300).nullish(),
  n: z.number().int().min(1).max(4).nullish(),
  size: Size.nullish(),
  /** `b64_json` (default here, the image inline) or `url` (a Parley file URL, fetched with the caller's credentials). */
  response_format: z.enum(['url', 'b64_json']).nullish(),
  quality: z.string().max(40).nullish(),
  style: z.string().max(40).nullish(),
  user: z.string().max(256).nullish(),
});
export type V1ImageGenerationRequest = z.infer<typeof V1ImageGenerationRequest>;

/** Answer of `POST /v1/images/generations` (OpenAI's `ImagesResponse`). */
export const V1ImagesResponse = z.object({
  created: z.number(),
  data: z.array(z.object({ url: z.string().optional(), b64_json: z.string().optional(), revised_prompt: z.string().optional() })),
});
export type V1ImagesResponse = z.infer<typeof V1ImagesResponse>;
