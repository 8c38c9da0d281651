import type { ImageModel } from '../../contracts/images';
import { engineJson, fromBase64, ImageEngineError, trimBase, type EngineNet, type ImageEngineClient } from './engine';

interface SdResult {
  images?: string[];
}

/**
 * Automatic1111's web UI API: `POST /sdapi/v1/txt2img` and `/sdapi/v1/img2img` answer
 * `{images: [base64…], info}`; `GET /sdapi/v1/sd-models` lists checkpoints; the checkpoint is
 * chosen per request with `override_settings.sd_model_checkpoint` (the server-wide option is left alone).
 */
export function automatic1111(config: { baseUrl: string; apiAuth: string }, net: EngineNet): ImageEngineClient {
  const base = trimBase(config.baseUrl);
  if (!base) throw new ImageEngineError('No Automatic1111 URL is set (AUTOMATIC1111_BASE_URL)');
  const headers: Record<string, string> = config.apiAuth ? { authorization: `Basic ${Buffer.from(config.apiAuth).toString('base64')}` } : {};

  async function post(path: string, body: Record<string, unknown>, signal?: AbortSignal) {
    const response = await net.fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
    const answer = await engineJson<SdResult>(response, 'Automatic1111');
    if (!Array.isArray(answer.images) || answer.images.length === 0) throw new ImageEngineError('Automatic1111 answered no image');
    return answer.images.map((image) => fromBase64(image));
  }

  const common = (input: { prompt: string; model: string; width: number; height: number; n: number; steps?: number }) => ({
    prompt: input.prompt,
    batch_size: input.n,
    width: input.width,
    height: input.height,
    ...(input.steps ? { steps: input.steps } : {}),
    ...(input.model ? { override_settings: { sd_model_checkpoint: input.model }, override_settings_restore_afterwards: true } : {}),
  });

  return {
    generate: (input) => post('/sdapi/v1/txt2img', { ...common(input), ...(input.negativePrompt ? { negative_prompt: input.negativePrompt } : {}) }, input.signal),
    edit: (input) => post('/sdapi/v1/img2img', { ...common(input), init_images: [Buffer.from(input.image.bytes).toString('base64')], denoising_strength: 0.75 }, input.signal),
    async models(): Promise<ImageModel[]> {
      const response = await net.fetch(`${base}/sdapi/v1/sd-models`, { headers });
      const list = await engineJson<Array<{ title?: string; model_name?: string }>>(response, 'Automatic1111');
      if (!Array.isArray(list)) throw new ImageEngineError('Automatic1111 did not answer a model list');
      return list.filter((m) => m.title).map((m) => ({ id: m.title!, name: m.model_name ?? m.title! }));
    },
  };
}
