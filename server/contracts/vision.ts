/** Image types vision models read (the ones OpenAI-compatible servers and Ollama accept). */
export const VISION_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * Whether a model is given images: its `vision` capability when the model's settings say, else
 * yes for provider models (as Open WebUI does), except the built-in runtime: node-llama-cpp 3
 * reads text only (multimodal input is planned for its v4).
 */
export function seesImages(meta: { capabilities?: Record<string, boolean> | null } | undefined, provider: 'compat' | 'local' | 'builtin' | null | undefined): boolean {
  if (provider === 'builtin') return false;
  return meta?.capabilities?.vision ?? true;
}
