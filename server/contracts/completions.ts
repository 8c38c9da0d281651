import { z } from 'zod';
import { ChatMessage, MessageSource, type MessageToolStep } from './chats';
import { UsedMemory } from './memories';

/** A part of a multimodal message (OpenAI form). */
export const CompletionContentPart = z.union([
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image_url'), image_url: z.looseObject({ url: z.string().max(20_000_000) }) }),
]);

const ToolCallSchema = z.looseObject({
  id: z.string().max(200),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string().max(200), arguments: z.string().max(1_000_000) }),
});

/** A conversation message of a completion request. */
export const CompletionMessage = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(CompletionContentPart).max(100), z.null()]).default(''),
  name: z.string().max(200).optional(),
  tool_calls: z.array(ToolCallSchema).max(100).optional(),
  tool_call_id: z.string().max(200).optional(),
});
export type CompletionMessage = z.infer<typeof CompletionMessage>;

/** A file, knowledge base or note to answer from (a note's text reaches the model like an attached file's). */
export const CompletionFileRef = z.looseObject({
  type: z.enum(['file', 'collection', 'note']),
  id: z.string().min(1).max(200),
});
export type CompletionFileRef = z.infer<typeof CompletionFileRef>;

/** Per-request abilities (Open WebUI's `features`); unknown ones are ignored. */
export const CompletionFeatures = z.looseObject({
  web_search: z.boolean().optional(),
  memory: z.boolean().optional(),
  code_interpreter: z.boolean().optional(),
  image_generation: z.boolean().optional(),
});
export type CompletionFeatures = z.infer<typeof CompletionFeatures>;

/** Generation settings passed through to the provider; `null` means "not set". */
const Generation = {
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().positive().max(10_000_000).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(16)]).nullish(),
};

/** Body of POST /api/chat/completions. Unknown keys are ignored. */
export const CompletionRequest = z.object({
  /** A base or custom model id. */
  model: z.string().trim().min(1, 'must not be empty').max(256),
  messages: z.array(CompletionMessage).min(1, 'must hold at least one message').max(100_000),
  stream: z.boolean().default(false),
  session_id: z.string().max(200).optional(),
  /** Save the user message and the answer to this chat (the caller's). */
  chat_id: z.string().min(1).max(100).optional(),
  /** Where in the chat's tree the turn goes: the message it follows (default: the message shown last). */
  parent_id: z.string().min(1).max(100).nullable().optional(),
  /** The last user message is already saved as `parent_id`: save only the new answer (a sibling of earlier ones). */
  regenerate: z.boolean().optional(),
  files: z.array(CompletionFileRef).max(100).optional(),
  tool_ids: z.array(z.string().min(1).max(300)).max(100).optional(),
  /** The caller's name for this answer (with `chat_id`): `POST /api/chat/stop` can stop it by this name before the saved ids arrive. */
  stream_id: z.string().min(1).max(100).optional(),
  /** Abilities turned on for this answer (`web_search`: search the web first, or give the model web tools; `code_interpreter`: the model runs Python; `image_generation`: an image is made first; `memory`: what the caller's memories say joins the system context). */
  features: CompletionFeatures.optional(),
  ...Generation,
  /** The common workspace sends overrides here too; top-level values win. */
  params: z.looseObject(Generation).optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
});
export type CompletionRequest = z.infer<typeof CompletionRequest>;

/** Body of POST /api/chat/stop: the person stopped an answer, and this is what their screen showed of it. */
export const StopAnswerRequest = z
  .object({
    chat_id: z.string().min(1).max(100),
    /** The `stream_id` the completion was sent with. */
    stream_id: z.string().min(1).max(100).optional(),
    /** The saved answer's id, when the stream named it already. */
    message_id: z.string().min(1).max(100).optional(),
    /** The answer's text as it was on screen: it is what is kept (and what Continue goes on from). */
    content: z.string().max(10_000_000),
  })
  .refine((b) => b.stream_id !== undefined || b.message_id !== undefined, { message: 'name the answer with stream_id or message_id', path: ['stream_id'] });
export type StopAnswerRequest = z.infer<typeof StopAnswerRequest>;

/** The stopped answer as saved, or null when it is not saved (yet): its request had not reached the service. */
export const StopAnswerResponse = z.object({ message: ChatMessage.nullable() });
export type StopAnswerResponse = z.infer<typeof StopAnswerResponse>;

/** A status line shown while the answer is prepared (retrieval, web search, tool calls). */
export interface CompletionStatus {
  /** `web_search`, `tool_calls`, … */
  action: string;
  /** The line in English; the UI words it from the other fields where it knows the action. */
  description: string;
  done: boolean;
  /** Image generation: how far the engine is, in percent, when it tells. */
  progress?: number;
  /** Web search: the queries searched. */
  queries?: string[];
  /** Web search: the pages being read, or read. */
  urls?: string[];
  /** Web search: how many pages (or results). */
  count?: number;
  /** Set when the step failed; `description` says why. */
  error?: boolean;
  /** `knowledge_unmatched`: the knowledge bases and files searched in which no passage matched. */
  names?: string[];
}

/** Token counts. */
export const CompletionUsage = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
});
export type CompletionUsage = z.infer<typeof CompletionUsage>;

/** A cited source, as saved on the message. */
export type CompletionSource = MessageSource;

/**
 * One SSE frame of a streamed completion (OpenAI `chat.completion.chunk`). Extra fields:
 * `sources` (first frame, when retrieval ran), `status`, `tool_step`, `error` (the stream failed; the
 * partial answer is kept), `chat_id` / `message_id` / `user_message_id` (where the answer and
 * the user message are saved: a frame before any other, and the last frame).
 */
export interface CompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: 'assistant'; content?: string }; finish_reason: string | null }>;
  usage?: CompletionUsage;
  sources?: CompletionSource[];
  status?: CompletionStatus;
  /** A tool call that just finished (name, arguments, result, duration, error). */
  tool_step?: MessageToolStep;
  error?: { message: string; type: string; code?: string };
  chat_id?: string;
  message_id?: string;
  user_message_id?: string;
}

/** The answer of a completion with `stream: false` (OpenAI `chat.completion`). */
export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number(),
  model: z.string(),
  choices: z.array(z.object({ index: z.number(), message: z.object({ role: z.literal('assistant'), content: z.string() }), finish_reason: z.string().nullable() })),
  usage: CompletionUsage.optional(),
  sources: z.array(MessageSource).optional(),
  /** The caller's memories the answer was given (memory on). */
  memories: z.array(UsedMemory).optional(),
  chat_id: z.string().optional(),
  message_id: z.string().optional(),
  user_message_id: z.string().optional(),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;
