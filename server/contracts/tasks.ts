import { z } from 'zod';

const Template = z.string().max(100_000, 'must be at most 100,000 characters');
const ModelRef = z.string().max(256, 'must be at most 256 characters');

/**
 * Task pipeline config (section 2). Empty templates mean "use Parley's built-in template";
 * empty model ids mean "use the chat's model".
 */
export const TaskConfig = z.object({
  /** Model for background tasks; overrides the chat model. */
  TASK_MODEL: ModelRef,
  /** Model for tasks of chats with a compat (external API) model; falls back to TASK_MODEL. */
  TASK_MODEL_EXTERNAL: ModelRef,
  ENABLE_TITLE_GENERATION: z.boolean(),
  TITLE_GENERATION_PROMPT_TEMPLATE: Template,
  ENABLE_TAGS_GENERATION: z.boolean(),
  /** Must make the model answer an object with a `tags` array. */
  TAGS_GENERATION_PROMPT_TEMPLATE: Template,
  ENABLE_FOLLOW_UP_GENERATION: z.boolean(),
  /** Must make the model answer an object with a `follow_ups` array. */
  FOLLOW_UP_GENERATION_PROMPT_TEMPLATE: Template,
  ENABLE_AUTOCOMPLETE_GENERATION: z.boolean(),
  /** Longest input autocomplete accepts, in characters; -1 = unlimited. */
  AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH: z.number().int('must be a whole number').min(-1, 'must be -1 (unlimited) or more'),
  /** Web search query generation. */
  ENABLE_SEARCH_QUERY_GENERATION: z.boolean(),
  /** Retrieval query generation (knowledge search). */
  ENABLE_RETRIEVAL_QUERY_GENERATION: z.boolean(),
  QUERY_GENERATION_PROMPT_TEMPLATE: Template,
  /** Default prompt for tool calling with models that lack native function calling. */
  TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE: Template,
});
export type TaskConfig = z.infer<typeof TaskConfig>;

/** Defaults of a fresh install. */
export const DEFAULT_TASK_CONFIG: TaskConfig = {
  TASK_MODEL: '',
  TASK_MODEL_EXTERNAL: '',
  ENABLE_TITLE_GENERATION: true,
  TITLE_GENERATION_PROMPT_TEMPLATE: '',
  ENABLE_TAGS_GENERATION: true,
  TAGS_GENERATION_PROMPT_TEMPLATE: '',
  ENABLE_FOLLOW_UP_GENERATION: true,
  FOLLOW_UP_GENERATION_PROMPT_TEMPLATE: '',
  ENABLE_AUTOCOMPLETE_GENERATION: true,
  AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH: -1,
  ENABLE_SEARCH_QUERY_GENERATION: true,
  ENABLE_RETRIEVAL_QUERY_GENERATION: true,
  QUERY_GENERATION_PROMPT_TEMPLATE: '',
  TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE: '',
};

/** A message as task endpoints take it: content is text, or OpenAI content parts. */
export const TaskMessage = z.looseObject({
  role: z.string().min(1).max(50),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() })), z.null()]),
});
export type TaskMessage = z.infer<typeof TaskMessage>;

const Messages = z.array(TaskMessage).max(10_000);
const OptionalModel = z.string().min(1).max(256).optional();

/** POST /api/v1/tasks/title. */
export const TitleTaskRequest = z.object({ messages: Messages.min(1, 'must hold at least one message'), model: OptionalModel, chat_id: z.string().max(100).optional() });
export type TitleTaskRequest = z.infer<typeof TitleTaskRequest>;

/** POST /api/v1/tasks/follow-up: `response` is the answer to suggest follow-ups for (else the last assistant message). */
export const FollowUpTaskRequest = z.object({ messages: Messages, response: z.string().max(2_000_000).optional(), model: OptionalModel });
export type FollowUpTaskRequest = z.infer<typeof FollowUpTaskRequest>;

/** POST /api/v1/tasks/tags. */
export const TagsTaskRequest = z.object({ messages: Messages.min(1, 'must hold at least one message'), model: OptionalModel, chat_id: z.string().max(100).optional() });
export type TagsTaskRequest = z.infer<typeof TagsTaskRequest>;

/** POST /api/v1/tasks/autocomplete: completes what the user is typing. */
export const AutocompleteTaskRequest = z.object({
  prompt: z.string().max(1_000_000),
  /** What is being typed, e.g. `user message` or `search query`. */
  type: z.string().max(100).optional(),
  messages: Messages.optional(),
  model: OptionalModel,
});
export type AutocompleteTaskRequest = z.infer<typeof AutocompleteTaskRequest>;

/** POST /api/v1/tasks/queries: search queries for a conversation. */
export const QueriesTaskRequest = z.object({
  messages: Messages.min(1, 'must hold at least one message'),
  type: z.enum(['retrieval', 'web_search']).default('retrieval'),
  model: OptionalModel,
});
export type QueriesTaskRequest = z.infer<typeof QueriesTaskRequest>;

/** Answer of POST /api/v1/tasks/title. */
export const TitleTaskResponse = z.object({ title: z.string() });
/** Answer of POST /api/v1/tasks/follow-up: the suggested questions. */
export const FollowUpTaskResponse = z.array(z.string());
/** Answer of POST /api/v1/tasks/tags. */
export const TagsTaskResponse = z.object({ tags: z.array(z.string()) });
/** Answer of POST /api/v1/tasks/autocomplete: the text that continues the prompt. */
export const AutocompleteTaskResponse = z.object({ text: z.string() });
/** Answer of POST /api/v1/tasks/queries. */
export const QueriesTaskResponse = z.object({ queries: z.array(z.string()) });
