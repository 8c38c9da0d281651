import type { ComfyUINode } from '../../contracts/images';
import { ImageEngineError } from './engine';

/** A workflow in ComfyUI's API format: node id → `{class_type, inputs}`. */
export type ComfyWorkflow = Record<string, { class_type?: string; inputs?: Record<string, unknown> }>;

/** Parley's default text-to-image workflow (a Stable Diffusion checkpoint, KSampler, SaveImage). */
export const DEFAULT_COMFYUI_WORKFLOW: ComfyWorkflow = {
  '3': { class_type: 'KSampler', inputs: { seed: 0, steps: 20, cfg: 8, sampler_name: 'euler', scheduler: 'normal', denoise: 1, model: ['4', 0], positive: ['6', 0], negative: ['7', 0], latent_image: ['5', 0] } },
  '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'model.safetensors' } },
  '5': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 512, batch_size: 1 } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: 'Prompt', clip: ['4', 1] } },
  '7': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
  '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'Parley', images: ['8', 0] } },
};

/** Which inputs of the default workflow get what (Open WebUI's COMFYUI_WORKFLOW_NODES shape). */
export const DEFAULT_COMFYUI_NODES: ComfyUINode[] = [
  { type: 'prompt', key: 'text', node_ids: ['6'] },
  { type: 'negative_prompt', key: 'text', node_ids: ['7'] },
  { type: 'model', key: 'ckpt_name', node_ids: ['4'] },
  { type: 'width', key: 'width', node_ids: ['5'] },
  { type: 'height', key: 'height', node_ids: ['5'] },
  { type: 'n', key: 'batch_size', node_ids: ['5'] },
  { type: 'steps', key: 'steps', node_ids: ['3'] },
  { type: 'seed', key: 'seed', node_ids: ['3'] },
];

/** Parley's default image-to-image workflow for "edit this image": the uploaded image encoded, denoised at 0.75. */
export const DEFAULT_COMFYUI_EDIT_WORKFLOW: ComfyWorkflow = {
  ...DEFAULT_COMFYUI_WORKFLOW,
  '3': { class_type: 'KSampler', inputs: { ...DEFAULT_COMFYUI_WORKFLOW['3']!.inputs, denoise: 0.75, latent_image: ['11', 0] } },
  '10': { class_type: 'LoadImage', inputs: { image: 'input.png' } },
  '11': { class_type: 'VAEEncode', inputs: { pixels: ['10', 0], vae: ['4', 2] } },
};
export const DEFAULT_COMFYUI_EDIT_NODES: ComfyUINode[] = [...DEFAULT_COMFYUI_NODES.filter((n) => n.type !== 'width' && n.type !== 'height' && n.type !== 'n'), { type: 'image', key: 'image', node_ids: ['10'] }];

/** The values a run puts into the workflow. */
export interface WorkflowValues {
  prompt: string;
  negativePrompt?: string;
  model: string;
  width?: number;
  height?: number;
  n?: number;
  steps?: number;
  seed?: number;
  image?: string;
}

/** Reads an admin's workflow (JSON text in API format); empty = `fallback`. 400-worthy text is an ImageEngineError. */
export function parseWorkflow(text: string, fallback: ComfyWorkflow): ComfyWorkflow {
  if (!text.trim()) return structuredClone(fallback);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ImageEngineError('COMFYUI_WORKFLOW is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ImageEngineError('COMFYUI_WORKFLOW must be a workflow in ComfyUI’s API format (an object of nodes)');
  return parsed as ComfyWorkflow;
}

/** Sets the mapped inputs (Open WebUI's node types); a mapping naming a node the workflow lacks is an error. */
export function applyNodes(workflow: ComfyWorkflow, nodes: ComfyUINode[], values: WorkflowValues): ComfyWorkflow {
  const seed = values.seed ?? Math.floor(Math.random() * 2 ** 50);
  const byType: Record<string, [string, unknown]> = {
    prompt: ['text', values.prompt],
    negative_prompt: ['text', values.negativePrompt ?? ''],
    model: ['ckpt_name', values.model],
    width: ['width', values.width],
    height: ['height', values.height],
    n: ['batch_size', values.n],
    steps: ['steps', values.steps],
    seed: ['seed', seed],
    image: ['image', values.image],
  };
  for (const node of nodes) {
    const mapped = node.type ? byType[node.type] : undefined;
    if (node.type && !mapped) continue;
    const [defaultKey, value] = mapped ?? [node.key ?? 'text', node.value];
    // Nothing to put there (no model chosen, no steps set): the workflow keeps its own value.
    if (value === undefined || value === null || value === '') continue;
    for (const id of node.node_ids) {
      const target = workflow[id];
      if (!target) throw new ImageEngineError(`COMFYUI_WORKFLOW_NODES names node ${id}, which the workflow does not have`);
      target.inputs = { ...target.inputs, [node.key || defaultKey]: value };
    }
  }
  return workflow;
}
