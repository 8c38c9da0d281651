import { z } from 'zod';
import { CompletionContentPart, CompletionFeatures } from './completions';
import { groupedDigits } from './grouped-digits';

/*
 * The OpenAI-compatible surface under /v1: the subset of OpenAI's API other applications on the
 * network use (models, chat completions, embeddings). Unknown request keys are ignored, as
 * OpenAI clients send many optional ones.
 */

const ToolCallSchema = z.looseObject({
  id: z.string().max(200),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string().max(200), arguments: z.string().max(1_000_000) }),
});

/** A conversation message; `developer` is OpenAI's newer name for `system`. */
export const V1ChatMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(CompletionContentPart).max(100), z.null()]).default(''),
  name: z.string().max(200).optional(),
  tool_calls: z.array(ToolCallSchema).max(100).optional(),
  tool_call_id: z.string().max(200).optional(),
});
export type V1ChatMessage = z.infer<typeof V1ChatMessage>;

/** A function the caller offers the model; calls of it are returned to the caller to run. */
export const V1Tool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1).max(64).regex(/^[a-zA-Z0-9_-]+$/, 'letters, digits, _ and - only'),
    description: z.string().max(10_000).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});
export type V1Tool = z.infer<typeof V1Tool>;

/** Which tool the model must call. */
export const V1ToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1).max(64) }) }),
]);

/** Body of POST /v1/chat/completions. */
export const V1ChatCompletionRequest = z.object({
  /** A base or custom model id from GET /v1/models. */
  model: z.string().trim().min(1, 'must not be empty').max(256),
  messages: z.array(V1ChatMessage).min(1, 'must hold at least one message').max(100_000),
  stream: z.boolean().nullish(),
  /** `include_usage: true` adds a last chunk (empty `choices`) with token counts. */
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  tools: z.array(V1Tool).max(128).optional(),
  tool_choice: V1ToolChoice.optional(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().positive().max(10_000_000).nullish(),
  /** OpenAI's newer name for `max_tokens`; `max_tokens` wins when both are sent. */
  max_completion_tokens: z.number().int().positive().max(10_000_000).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(16)]).nullish(),
  /** Only one choice is generated. */
  n: z.literal(1).nullish(),
  /** Parley extension (Open WebUI's `features`): `{web_search: true}` searches the web for the answer, `{code_interpreter: true}` lets the model run Python, `{image_generation: true}` makes an image first, `{memory: true}` adds what the caller's memories say to the system context. */
  features: CompletionFeatures.optional(),
  /** The end user, for the caller's own records; not used. */
  user: z.string().max(256).optional(),
});
export type V1ChatCompletionRequest = z.infer<typeof V1ChatCompletionRequest>;

/** Token counts. */
export const V1Usage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type V1Usage = z.infer<typeof V1Usage>;

/** A tool call in an answer. */
export const V1ToolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string().describe('JSON text of the arguments') }),
});
export type V1ToolCall = z.infer<typeof V1ToolCall>;

/**
 * A passage a custom model's knowledge contributed (Parley extension field `sources`): the
 * source (file or knowledge base) and the passages the answer was given, as on saved messages.
 */
export const V1Source = z.object({
  source: z.object({ id: z.string(), name: z.string(), type: z.string().optional(), url: z.string().optional() }),
  document: z.array(z.string()),
  metadata: z.array(z.record(z.string(), z.unknown())),
  distances: z.array(z.number()).optional(),
});

/** The answer of POST /v1/chat/completions without `stream` (OpenAI `chat.completion`). */
export const V1ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(V1ToolCall).optional() }),
      finish_reason: z.string().nullable(),
    }),
  ),
  usage: V1Usage.optional(),
  /** Parley extension: what the model's knowledge contributed, when retrieval ran. */
  sources: z.array(V1Source).optional(),
});
export type V1ChatCompletion = z.infer<typeof V1ChatCompletion>;

/**
 * One Server-Sent Event of a streamed answer (OpenAI `chat.completion.chunk`); the stream ends
 * with `data: [DONE]`. The first chunk carries `sources` when retrieval ran; a failure after the
 * stream began arrives as a chunk with `error`.
 */
export const V1ChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({
        role: z.literal('assistant').optional(),
        content: z.string().optional(),
        tool_calls: z.array(V1ToolCall.extend({ index: z.number().int() })).optional(),
      }),
      finish_reason: z.string().nullable(),
    }),
  ),
  usage: V1Usage.optional(),
  sources: z.array(V1Source).optional(),
  error: z.object({ message: z.string(), type: z.string(), code: z.string().nullable() }).optional(),
});

/** An entry of GET /v1/models. */
export const V1Model = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  /** `parley` for custom models, else the provider kind (`compat`, `local`, `builtin`). */
  owned_by: z.string(),
  /** Parley extension: the display name. */
  name: z.string(),
});
export type V1Model = z.infer<typeof V1Model>;

/** GET /v1/models. */
export const V1ModelList = z.object({ object: z.literal('list'), data: z.array(V1Model) });
export type V1ModelList = z.infer<typeof V1ModelList>;

/** Body of POST /v1/embeddings. `model` is recorded; the configured embedding engine answers. */
/** Characters one text to embed may hold: about OpenAI's 8,192 tokens per input. */
export const MAX_EMBEDDING_INPUT_CHARS = 32_768;
/** Characters all texts of one request may hold together: about OpenAI's 300,000 tokens per request. */
export const MAX_EMBEDDING_REQUEST_CHARS = 1_200_000;

const EmbeddingText = z.string().max(MAX_EMBEDDING_INPUT_CHARS, `must hold at most ${groupedDigits(MAX_EMBEDDING_INPUT_CHARS)} characters (about 8,192 tokens)`);

export const V1EmbeddingsRequest = z
  .object({
    model: z.string().trim().min(1, 'must not be empty').max(256),
    input: z.union([EmbeddingText, z.array(EmbeddingText).min(1, 'must hold at least one text').max(2048)]),
    encoding_format: z.enum(['float', 'base64']).default('float'),
    /** Only the engine's own size is available. */
    dimensions: z.number().int().positive().optional(),
    user: z.string().max(256).optional(),
  })
  .superRefine((body, ctx) => {
    const chars = typeof body.input === 'string' ? body.input.length : body.input.reduce((sum, text) => sum + text.length, 0);
    if (chars > MAX_EMBEDDING_REQUEST_CHARS) {
      ctx.addIssue({ code: 'custom', path: ['input'], message: `must hold at most ${groupedDigits(MAX_EMBEDDING_REQUEST_CHARS)} characters in all (about 300,000 tokens); this request holds ${groupedDigits(chars)}` });
    }
  });
export type V1EmbeddingsRequest = z.infer<typeof V1EmbeddingsRequest>;

/** POST /v1/embeddings: one vector per input, in order (base64: little-endian float32). */
export const V1EmbeddingsResponse = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ object: z.literal('embedding'), index: z.number().int(), embedding: z.union([z.array(z.number()), z.string()]) })),
  /** The engine that made the vectors. */
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});
export type V1EmbeddingsResponse = z.infer<typeof V1EmbeddingsResponse>;

/** Every /v1 error, in OpenAI's shape (the rest of the API answers `{detail}`). */
export const V1Error = z.object({
  error: z.object({
    message: z.string(),
    /** `invalid_request_error`, `authentication_error`, `permission_error`, `not_found_error`, `rate_limit_error` or `api_error`. */
    type: z.string(),
    /** Parley's stable error code, lower-cased (`model_not_found`, `rate_limited`, …). */
    code: z.string().nullable(),
    param: z.string().nullable(),
  }),
});
export type V1Error = z.infer<typeof V1Error>;
