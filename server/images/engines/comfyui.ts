import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { ComfyUINode, ImageModel } from '../../contracts/images';
import { applyNodes, DEFAULT_COMFYUI_EDIT_NODES, DEFAULT_COMFYUI_EDIT_WORKFLOW, DEFAULT_COMFYUI_NODES, DEFAULT_COMFYUI_WORKFLOW, parseWorkflow, type ComfyWorkflow, type WorkflowValues } from './comfyui-workflow';
import { download, engineJson, ImageEngineError, trimBase, type EngineImage, type EngineNet, type ImageEngineClient } from './engine';

/** Longest a ComfyUI run may take before Parley gives up on it. */
const RUN_TIMEOUT_MS = 10 * 60_000;

interface ComfyMessage {
  type?: string;
  data?: { prompt_id?: string; node?: string | null; value?: number; max?: number; exception_message?: string };
}

/**
 * Waits on ComfyUI's socket for the end of the prompt (`executing` with node null), telling
 * progress on the way. Messages that come before the prompt's id is known are kept and read then.
 */
function watchRun(ws: WebSocket, progress: ((done: number) => void) | undefined, signal?: AbortSignal) {
  let promptId: string | undefined;
  const early: ComfyMessage[] = [];
  let settle: (error?: Error) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => settle(new ImageEngineError('ComfyUI did not finish within 10 minutes')), RUN_TIMEOUT_MS);
    const onAbort = () => settle(new ImageEngineError('The image was cancelled'));
    const onClose = () => settle(new ImageEngineError('ComfyUI closed its socket before the image was done'));
    signal?.addEventListener('abort', onAbort, { once: true });
    settle = (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      ws.off('message', onMessage);
      ws.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    ws.on('message', onMessage);
    ws.on('close', onClose);
  });
  ended.catch(() => undefined);

  function read(message: ComfyMessage): void {
    const data = message.data;
    if (!data || data.prompt_id !== promptId) return;
    if (message.type === 'progress' && data.max) progress?.(Math.min(1, (data.value ?? 0) / data.max));
    if (message.type === 'execution_error') settle(new ImageEngineError(`ComfyUI failed: ${data.exception_message ?? 'execution error'}`));
    if ((message.type === 'executing' && data.node === null) || message.type === 'execution_success') settle();
  }
  function onMessage(data: unknown, binary: boolean): void {
    if (binary) return; // preview images
    let message: ComfyMessage;
    try {
      message = JSON.parse(String(data)) as ComfyMessage;
    } catch {
      return;
    }
    if (promptId === undefined) early.push(message);
    else read(message);
  }

  return {
    ended,
    /** The queued prompt's id: its messages are read from now on (and those that came early). */
    follow(id: string): void {
      promptId = id;
      early.splice(0).forEach(read);
    },
  };
}

/**
 * ComfyUI's HTTP and WebSocket API: the workflow (API format, inputs set through the node
 * mapping) is queued with `POST /prompt` while `/ws?clientId=…` reports progress and the end;
 * `GET /history/{id}` names the outputs of its SaveImage/PreviewImage nodes, `GET /view` serves
 * them. Edits upload the image first (`POST /upload/image`) and run the edit workflow.
 */
export function comfyui(config: { baseUrl: string; apiKey: string; workflow: string; nodes: ComfyUINode[] }, net: EngineNet): ImageEngineClient {
  const base = trimBase(config.baseUrl);
  if (!base) throw new ImageEngineError('No ComfyUI URL is set (COMFYUI_BASE_URL)');
  const headers: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};

  async function run(workflow: ComfyWorkflow, progress?: (done: number) => void, signal?: AbortSignal): Promise<EngineImage[]> {
    const clientId = randomUUID();
    const ws = await net.websocket(`${base.replace(/^http/i, 'ws')}/ws?clientId=${clientId}`, headers);
    let promptId: string;
    try {
      const watch = watchRun(ws, progress, signal);
      const queued = await engineJson<{ prompt_id?: string; error?: unknown }>(
        await net.fetch(`${base}/prompt`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ prompt: workflow, client_id: clientId }), signal }),
        'ComfyUI',
      );
      if (!queued.prompt_id) throw new ImageEngineError('ComfyUI did not queue the workflow');
      promptId = queued.prompt_id;
      watch.follow(promptId);
      await watch.ended;
    } finally {
      ws.close();
    }
    const history = await engineJson<Record<string, { outputs?: Record<string, { images?: Array<{ filename: string; subfolder?: string; type?: string }> }> }>>(
      await net.fetch(`${base}/history/${encodeURIComponent(promptId)}`, { headers, signal }),
      'ComfyUI',
    );
    const outputs = history[promptId]?.outputs ?? {};
    const images: EngineImage[] = [];
    for (const [nodeId, output] of Object.entries(outputs)) {
      if (!['SaveImage', 'PreviewImage'].includes(workflow[nodeId]?.class_type ?? '')) continue;
      for (const image of output.images ?? []) {
        const query = new URLSearchParams({ filename: image.filename, subfolder: image.subfolder ?? '', type: image.type ?? 'output' });
        images.push(await download(net, `${base}/view?${query}`, headers, signal));
      }
    }
    if (images.length === 0) throw new ImageEngineError('ComfyUI finished without an image (does the workflow have a SaveImage node?)');
    return images;
  }

  const values = (input: { prompt: string; model: string; width: number; height: number; n: number; steps?: number }): WorkflowValues => ({
    prompt: input.prompt,
    model: input.model,
    width: input.width,
    height: input.height,
    n: input.n,
    ...(input.steps ? { steps: input.steps } : {}),
  });
  const custom = config.workflow.trim() !== '';

  return {
    async generate(input) {
      const workflow = applyNodes(parseWorkflow(config.workflow, DEFAULT_COMFYUI_WORKFLOW), custom ? config.nodes : DEFAULT_COMFYUI_NODES, { ...values(input), negativePrompt: input.negativePrompt });
      return run(workflow, input.progress, input.signal);
    },
    async edit(input) {
      const form = new FormData();
      form.append('image', new Blob([input.image.bytes], { type: input.image.type ?? 'image/png' }), input.image.name);
      form.append('type', 'input');
      form.append('overwrite', 'true');
      const uploaded = await engineJson<{ name?: string; subfolder?: string }>(await net.fetch(`${base}/upload/image`, { method: 'POST', headers, body: form, signal: input.signal }), 'ComfyUI');
      if (!uploaded.name) throw new ImageEngineError('ComfyUI did not take the image');
      const image = uploaded.subfolder ? `${uploaded.subfolder}/${uploaded.name}` : uploaded.name;
      // An admin's own workflow edits when its node mapping takes an image; else Parley's image-to-image workflow.
      const own = custom && config.nodes.some((node) => node.type === 'image');
      const workflow = applyNodes(parseWorkflow(own ? config.workflow : '', DEFAULT_COMFYUI_EDIT_WORKFLOW), own ? config.nodes : DEFAULT_COMFYUI_EDIT_NODES, { ...values(input), image });
      return run(workflow, input.progress, input.signal);
    },
    async models(): Promise<ImageModel[]> {
      const info = await engineJson<Record<string, { input?: { required?: Record<string, unknown> } }>>(await net.fetch(`${base}/object_info`, { headers }), 'ComfyUI');
      const choices = info.CheckpointLoaderSimple?.input?.required?.ckpt_name;
      const names = Array.isArray(choices) && Array.isArray(choices[0]) ? (choices[0] as unknown[]) : [];
      return names.filter((n): n is string => typeof n === 'string').map((name) => ({ id: name, name }));
    },
  };
}
