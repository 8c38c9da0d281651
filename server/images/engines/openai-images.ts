import type { ImageModel } from '../../contracts/images';
import { download, engineJson, fromBase64, ImageEngineError, trimBase, type EngineImage, type EngineNet, type ImageEngineClient } from './engine';

interface ImagesResponse {
  data?: Array<{ b64_json?: string; url?: string }>;
}

/** Models listed for OpenAI's images API (as Open WebUI lists them; other compatible servers take any name). */
const OPENAI_MODELS: ImageModel[] = [
  { id: 'dall-e-2', name: 'DALL·E 2' },
  { id: 'dall-e-3', name: 'DALL·E 3' },
  { id: 'gpt-image-1', name: 'GPT Image 1' },
];

/** GPT image models always answer base64 and refuse `response_format`. */
const noResponseFormat = (model: string) => /^gpt-image/i.test(model);

/**
 * OpenAI-compatible images: `POST {base}/images/generations` (JSON) and `POST {base}/images/edits`
 * (multipart, the image as `image`), answering `{data: [{b64_json} | {url}]}`.
 */
export function openAiImages(config: { baseUrl: string; apiKey: string }, net: EngineNet): ImageEngineClient {
  const base = trimBase(config.baseUrl);
  const auth: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
  if (!base) throw new ImageEngineError('No OpenAI-compatible images URL is set (IMAGES_OPENAI_API_BASE_URL)');

  async function images(answer: ImagesResponse, signal?: AbortSignal): Promise<EngineImage[]> {
    if (!Array.isArray(answer.data) || answer.data.length === 0) throw new ImageEngineError('The images API answered no image');
    return Promise.all(
      answer.data.map((item) => {
        if (item.b64_json) return fromBase64(item.b64_json);
        // A URL of the engine's own: its key is not sent to another host.
        if (item.url) return download(net, item.url, new URL(item.url).origin === new URL(base).origin ? auth : {}, signal);
        throw new ImageEngineError('The images API answered an item without b64_json or url');
      }),
    );
  }

  return {
    async generate(input) {
      const body = {
        model: input.model || 'dall-e-2',
        prompt: input.prompt,
        n: input.n,
        size: `${input.width}x${input.height}`,
        ...(noResponseFormat(input.model) ? {} : { response_format: 'b64_json' }),
      };
      const response = await net.fetch(`${base}/images/generations`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: input.signal });
      return images(await engineJson<ImagesResponse>(response, 'The images API'), input.signal);
    },
    async edit(input) {
      const form = new FormData();
      form.append('model', input.model || 'dall-e-2');
      form.append('prompt', input.prompt);
      form.append('n', String(input.n));
      form.append('size', `${input.width}x${input.height}`);
      if (!noResponseFormat(input.model)) form.append('response_format', 'b64_json');
      form.append('image', new Blob([input.image.bytes], { type: input.image.type ?? 'image/png' }), input.image.name);
      const response = await net.fetch(`${base}/images/edits`, { method: 'POST', headers: auth, body: form, signal: input.signal });
      return images(await engineJson<ImagesResponse>(response, 'The images API'), input.signal);
    },
    async models() {
      return OPENAI_MODELS;
    },
  };
}
