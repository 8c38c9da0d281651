import type { WebSocket } from 'ws';
import type { ImageModel } from '../../contracts/images';

/** An image as an engine gave it. */
export interface EngineImage {
  bytes: Uint8Array;
  /** The media type the engine said, when it said one (the stored file is typed by its content anyway). */
  type?: string;
}

/** What to draw. */
export interface GenerateInput {
  prompt: string;
  model: string;
  width: number;
  height: number;
  n: number;
  steps?: number;
  negativePrompt?: string;
  signal?: AbortSignal;
  /** Called while the engine works: a fraction done (0..1) when the engine tells it. */
  progress?(done: number): void;
}

/** What to change in an image. */
export interface EditInput extends Omit<GenerateInput, 'negativePrompt'> {
  image: EngineImage & { name: string };
}

/** One image engine's API (OpenAI-compatible images, ComfyUI, Automatic1111). */
export interface ImageEngineClient {
  generate(input: GenerateInput): Promise<EngineImage[]>;
  edit(input: EditInput): Promise<EngineImage[]>;
  models(): Promise<ImageModel[]>;
}

/** How engines reach the network: fetch, and WebSocket for ComfyUI's progress (both asked through the outbound guard). */
export interface EngineNet {
  fetch: typeof fetch;
  /** Opens a WebSocket (ComfyUI's `/ws`) after the outbound guard allowed it. */
  websocket(url: string, headers: Record<string, string>): Promise<WebSocket>;
}

/** An engine answered with an error, or something that is not what its API documents. */
export class ImageEngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageEngineError';
  }
}

/** Most bytes one image may have. */
export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** The JSON answer of an engine call, or an ImageEngineError naming the status and the engine's own words. */
export async function engineJson<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) {
    let detail = text.slice(0, 300);
    try {
      const parsed = JSON.parse(text) as { error?: { message?: string } | string; detail?: string; message?: string };
      detail = (typeof parsed.error === 'object' ? parsed.error?.message : parsed.error) ?? parsed.detail ?? parsed.message ?? detail;
    } catch {
      // not JSON: the text itself
    }
    throw new ImageEngineError(`${what} answered ${response.status}${detail ? `: ${detail}` : ''}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ImageEngineError(`${what} did not answer JSON`);
  }
}

/** Bytes of a base64 image (a bare string or a data URL). */
export function fromBase64(data: string): EngineImage {
  const match = /^data:([^;,]+)?(?:;base64)?,(.*)$/s.exec(data);
  const bytes = Buffer.from(match ? match[2]! : data, 'base64');
  if (bytes.length === 0) throw new ImageEngineError('The engine sent an empty image');
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImageEngineError('The engine sent an image over 50 MB');
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), ...(match?.[1] ? { type: match[1] } : {}) };
}

/** Downloads an image the engine points to. */
export async function download(net: EngineNet, url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<EngineImage> {
  const response = await net.fetch(url, { headers, signal });
  if (!response.ok) throw new ImageEngineError(`Downloading the image answered ${response.status}`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_IMAGE_BYTES) throw new ImageEngineError('The image is over 50 MB');
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImageEngineError('The image is over 50 MB');
  return { bytes, type: response.headers.get('content-type') ?? undefined };
}

/** `base` without trailing slashes. */
export const trimBase = (base: string) => base.replace(/\/+$/, '');
