import { z } from 'zod';

/** What a library entry is for: chatting, making embeddings for RAG, reranking search results (a cross-encoder), or transcribing speech (whisper.cpp `ggml-*.bin`). */
export const BuiltinModelKind = z.enum(['chat', 'embedding', 'reranker', 'transcription']);
export type BuiltinModelKind = z.infer<typeof BuiltinModelKind>;

/** Where a library entry stands. `paused` downloads resume where they stopped (HTTP ranges). */
export const BuiltinModelStatus = z.enum(['ready', 'downloading', 'paused', 'failed']);
export type BuiltinModelStatus = z.infer<typeof BuiltinModelStatus>;

/** One model of the built-in library (GET /builtin/models). Header facts are null until the file is complete. */
export const BuiltinModel = z.object({
  /** Also its id in `/api/models` and `/api/chat/completions` once ready. */
  id: z.string(),
  name: z.string(),
  file_name: z.string(),
  /** Bytes of the whole file (0 while a download's size is unknown). */
  size: z.number(),
  /** Bytes on disk so far (equals `size` when ready). */
  downloaded: z.number(),
  architecture: z.string().nullable(),
  context_length: z.number().nullable(),
  /** The GGUF file type, such as `Q4_K_M` or `F16`. */
  quantization: z.string().nullable(),
  /** Rough memory needed to run it with its default context, in bytes. */
  ram_estimate: z.number().nullable(),
  kind: BuiltinModelKind,
  status: BuiltinModelStatus,
  /** Why it failed (status `failed`). */
  error: z.string().nullable(),
  /** Where it was downloaded from. */
  source_url: z.string().nullable(),
  sha256: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type BuiltinModel = z.infer<typeof BuiltinModel>;

const HttpUrl = z
  .string()
  .trim()
  .max(4096)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL');

/** POST /builtin/models/download. */
export const BuiltinDownloadRequest = z.object({
  url: HttpUrl,
  /** Checked when the file is complete; a mismatch fails the download. */
  sha256: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
    .transform((s) => s.toLowerCase())
    .optional(),
  name: z.string().trim().min(1).max(200).optional(),
  kind: BuiltinModelKind.optional(),
});
export type BuiltinDownloadRequest = z.infer<typeof BuiltinDownloadRequest>;

/** POST /builtin/models/import with a JSON body: a `.gguf` (or whisper `.bin`) already on the server's disk (admins). */
export const BuiltinImportPathRequest = z.object({
  path: z.string().trim().min(1).max(4096),
  name: z.string().trim().min(1).max(200).optional(),
  kind: BuiltinModelKind.optional(),
});
export type BuiltinImportPathRequest = z.infer<typeof BuiltinImportPathRequest>;

/** POST /builtin/models/{id}: rename or re-kind an entry. */
export const BuiltinModelUpdate = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  kind: BuiltinModelKind.optional(),
});
export type BuiltinModelUpdate = z.infer<typeof BuiltinModelUpdate>;

/** Runtime settings (GET|POST /builtin/config). */
export const BuiltinConfig = z.object({
  /** Off: built-in models are neither listed nor usable (the library stays). */
  enabled: z.boolean(),
  /** A loaded model is unloaded after this many idle seconds (0 = never). */
  idle_unload_seconds: z.number().int().min(0).max(86_400),
  /** CPU threads for inference; 0 = chosen from the machine's cores. */
  threads: z.number().int().min(0).max(256),
  /** Layers offloaded to the GPU: `auto` (as many as fit), 0 for CPU only, or a count. */
  gpu_layers: z.union([z.literal('auto'), z.number().int().min(0).max(1000)]),
  /** Memory the loaded models may take together, in MB; 0 = chosen from free memory. */
  memory_budget_mb: z.number().int().min(0).max(1_048_576),
  /** Context window used for chats, in tokens; 0 = the model's own, capped at 8192. */
  context_size: z.number().int().min(0).max(1_048_576),
});
export type BuiltinConfig = z.infer<typeof BuiltinConfig>;

/** POST /builtin/config: any subset. */
export const BuiltinConfigUpdate = BuiltinConfig.partial();
export type BuiltinConfigUpdate = z.infer<typeof BuiltinConfigUpdate>;

/** What the runtime is doing now (part of GET /builtin/config). */
export const BuiltinRuntimeStatus = z.object({
  /** Ids of the models loaded in memory. */
  loaded: z.array(z.string()),
  /** Threads in use, as resolved from the setting and the machine. */
  threads: z.number(),
  /** `cuda`, `vulkan`, `metal`, or false for CPU only; null before the runtime first started. */
  gpu: z.union([z.string(), z.literal(false)]).nullable(),
});
export type BuiltinRuntimeStatus = z.infer<typeof BuiltinRuntimeStatus>;

/** GET /builtin/config answer: the settings and the runtime's state. */
export const BuiltinConfigResponse = BuiltinConfig.extend({ runtime: BuiltinRuntimeStatus });
export type BuiltinConfigResponse = z.infer<typeof BuiltinConfigResponse>;

/** A curated model people may download (GET /builtin/recommended). */
export const RecommendedModel = z.object({
  name: z.string(),
  url: z.string(),
  /** Bytes. */
  size: z.number(),
  /** Rough memory to run it, bytes. */
  ram: z.number(),
  kind: BuiltinModelKind,
  license: z.string(),
  description: z.string(),
  sha256: z.string().optional(),
  /** Whether its RAM need fits this machine (set by the service from its total memory). */
  fits: z.boolean().optional(),
});
export type RecommendedModel = z.infer<typeof RecommendedModel>;
