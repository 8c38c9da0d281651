import type { ChatMessage as ProviderMessage, ToolCall, ToolChoice, ToolSpec, Usage } from '../providers';
import type { ResolvedModel } from '../models';
import type { CompletionRequest, CompletionSource, CompletionStatus } from '../contracts/completions';
import type { UsedMemory } from '../contracts/memories';
import type { MessageToolStep } from '../contracts/chats';
import type { Role } from '../contracts/auth';

/** Who asked. */
export interface CompletionCaller {
  id: string;
  role: Role;
}

/** A file or knowledge base the answer may draw on, and why it is in play. */
export interface FileRef {
  type: 'file' | 'collection';
  id: string;
  /** `request` (sent with the completion), `chat` (attached to the chat) or `model` (the model's knowledge). */
  origin: 'request' | 'chat' | 'model';
  name?: string;
}

/** What the retrieval stage is given. */
export interface RetrievalInput {
  user: CompletionCaller;
  files: FileRef[];
  /** The model's knowledge, as its meta lists it. */
  knowledge: ResolvedModel['meta']['knowledge'];
  /** The conversation as it will be sent (system prompt first). */
  messages: ProviderMessage[];
  /** The model answering (task models may generate search queries for it). */
  modelId: string;
  /** The answering model's context window in tokens, when its settings say (`num_ctx`): attached files are sent whole within it. */
  contextTokens?: number;
  signal: AbortSignal;
}

/** What retrieval found: the sources to cite (numbered for the model by the retrieval stage). */
export interface RetrievalResult {
  sources: CompletionSource[];
  /** Knowledge bases and files that were searched and had no passage above the relevance threshold. */
  unmatched?: ReadonlyArray<{ id: string; name: string; type: 'collection' | 'file' }>;
}

/** Retrieval over files and knowledge bases; the knowledge domain registers the real one. */
export type Retriever = (input: RetrievalInput) => Promise<RetrievalResult>;

/** A piece of code the interpreter found in the model's text: the code and where its block ends. */
export interface CodeBlock {
  code: string;
  end: number;
}

/**
 * The code interpreter for one answer (`features.code_interpreter`), as the code domain prepares
 * it: the prompt that tells the model how to run Python, the `execute_python` function for models
 * that call tools natively, the finder of runnable blocks for the others, and the runner.
 */
export interface PreparedInterpreter {
  /** Added to the system message. */
  prompt: string;
  /** Most code runs in one answer. */
  maxRounds: number;
  /** The `execute_python` function offered to models calling tools natively. */
  tool: ToolSpec;
  /** The first complete runnable block in `text` (a ```python fence or `<code_interpreter>` tag), if any. */
  findBlock(text: string): CodeBlock | undefined;
  /** Runs code: the text the model reads back and the step shown and saved (kind `code`). */
  run(code: string, callId: string, signal: AbortSignal): Promise<{ text: string; step: MessageToolStep }>;
}

/** Registers the code interpreter (the code domain): refuses (403) when it is off or not permitted, else prepares it. */
export interface CodeInterpreterPlug {
  prepare(input: { user: CompletionCaller; chatId?: string; fileIds: string[] }): Promise<PreparedInterpreter>;
}

/**
 * Image generation for one answer (`features.image_generation`), as the images domain prepares
 * it: the image is made (or the image sent with the message edited) before the model answers.
 */
export interface PreparedImageGeneration {
  /** Makes the image, telling progress through `status`: answers the step to show and save (kind `image`) and what the model is told. */
  run(input: { messages: CompletionRequest['messages']; fileIds: string[]; modelId: string; signal: AbortSignal; status(status: CompletionStatus): void | Promise<void> }): Promise<{ step: MessageToolStep; note: string }>;
}

/** Registers image generation (the images domain): refuses (403) when it is off or not permitted, else prepares it. */
export interface ImageGenerationPlug {
  prepare(input: { user: CompletionCaller }): Promise<PreparedImageGeneration>;
}

/**
 * Web search for one answer (the web domain registers it). `prepare` decides how it takes part
 * (throwing an HttpError 403 when web search is off, not allowed for the caller, or not a
 * capability of the model): `search` before the answer, or `tools` for models calling tools
 * natively. `search` runs as the answer starts, telling the stream how it goes.
 */
export interface WebSearchPlug {
  prepare(input: { user: CompletionCaller; resolved: ResolvedModel }): Promise<'search' | 'tools'>;
  search(input: { user: CompletionCaller; messages: CompletionRequest['messages']; modelId: string; signal: AbortSignal; status(status: CompletionStatus): void | Promise<void> }): Promise<CompletionSource[]>;
  tools(user: CompletionCaller): ToolSet;
}

/**
 * Memory for one answer (`features: {memory: true}`; the memories domain registers it). `recall`
 * refuses (HttpError 403) a caller who may not use memories, else answers the caller's memories
 * relevant to the conversation; `tools` are `remember` and `recall` for models calling tools natively.
 */
export interface MemoryPlug {
  recall(input: { user: CompletionCaller; messages: CompletionRequest['messages']; signal: AbortSignal }): Promise<UsedMemory[]>;
  tools(user: CompletionCaller): ToolSet;
}

/**
 * The text of notes attached to a request (`files: [{type: 'note'}]`; the notes domain registers
 * it): each note the caller may read becomes a source, like an attached file.
 */
export type NoteSourcer = (user: CompletionCaller, ids: readonly string[]) => Promise<CompletionSource[]>;

/** Tools the model may call during one completion. */
export interface ToolSet {
  specs: ToolSpec[];
  /** Runs one call and returns its result as text for the model. */
  execute(call: ToolCall, signal: AbortSignal): Promise<string>;
  /**
   * Prompt-based function calling for models without native tools: asks the model which calls
   * to make (TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE) and answers them, empty for none.
   */
  promptCalls?(input: { provider: ResolvedModel['provider']; model: string; messages: ProviderMessage[]; signal: AbortSignal }): Promise<ToolCall[]>;
}

/** What the tools stage is given: tool ids from the request and from the model's meta. */
export interface ToolsInput {
  user: CompletionCaller;
  toolIds: string[];
  /** The caller's bearer credential, for tool servers with auth_type `session`. */
  credential?: string;
  signal: AbortSignal;
}

/** Collects tool specs and an executor; the tools domain registers the real one. */
export type ToolResolver = (input: ToolsInput) => Promise<ToolSet>;

/**
 * Functions the caller runs itself (OpenAI `tools` on /v1): offered to the model beside the
 * model's own tools; when the model calls one, the answer ends with those calls for the caller.
 */
export interface ClientTools {
  specs: ToolSpec[];
  choice?: ToolChoice;
}

/** Generation settings sent to the provider. */
export interface GenerationParams {
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  seed?: number;
  stop?: string | string[];
}

/** A completion ready to run: everything decided before the provider is called. */
export interface PreparedCompletion {
  /** `chatcmpl-…`, the id of every chunk. */
  id: string;
  created: number;
  user: CompletionCaller;
  request: CompletionRequest;
  resolved: ResolvedModel;
  messages: ProviderMessage[];
  params: GenerationParams;
  files: FileRef[];
  retrieval: RetrievalResult;
  tools: ToolSet;
  /** The caller's own functions (/v1), passed through to the provider. */
  clientTools?: ClientTools;
  /** Where the turn is saved, when the request named a chat. */
  chat?: { id: string; parentId: string | null };
  /** The code interpreter, when the request turned it on: through the `execute_python` tool, or runnable blocks in the text. */
  interpreter?: PreparedInterpreter & { mode: 'tool' | 'blocks' };
  /** Image generation, when the request turned it on: the image is made before the model answers. */
  imageGeneration?: PreparedImageGeneration;
  /** Web search to run as the answer starts: the conversation before the sources were added, memories kept (sources are numbered again with the web's). */
  webSearch?: { messages: ProviderMessage[] };
  /** The caller's memories the answer was given (memory on). */
  memories?: UsedMemory[];
}

/** What the pipeline emits while it answers; the transport turns these into SSE frames or one JSON object. */
export type PipelineEvent =
  /** Where the turn is saved: sent before anything else the stream carries, so the client can name the answer (to stop it). */
  | { type: 'saved'; chatId: string; messageId: string; userMessageId?: string }
  | { type: 'sources'; sources: CompletionSource[] }
  /** The caller's memories the answer was given (sent to the caller only, never saved with the chat). */
  | { type: 'memories'; memories: UsedMemory[] }
  | { type: 'status'; status: CompletionStatus }
  | { type: 'tool_step'; step: MessageToolStep }
  | { type: 'content'; text: string }
  /** Text as JSON string literals (quotes included, safe to copy into a JSON document), in order: the hot path. */
  | { type: 'literals'; literals: readonly string[] }
  | { type: 'usage'; usage: Usage }
  | { type: 'tool_calls'; calls: ToolCall[] }
  | { type: 'finish'; reason: string };

/** How an answer ended. */
export interface AnswerOutcome {
  content: string;
  finishReason: string | null;
  usage?: Usage;
  /** Calls of the caller's own functions the model made; the answer ends with them (`finish_reason: tool_calls`). */
  toolCalls?: ToolCall[];
  /** The tool calls made while answering, in order. */
  toolSteps?: MessageToolStep[];
  /** Set when the answer stopped early: the client left, or the provider failed. */
  interrupted?: { reason: 'client' | 'provider'; message: string };
}
