import type { ProviderKind } from '../contracts/providers';
import { decodeLiterals } from './json-literals';

/** A model as a provider lists it (before prefixes and allow-lists). */
export interface ProviderModel {
  /** The provider's own id (Ollama: the model name, e.g. `llama3:latest`). */
  id: string;
  name: string;
  /** Epoch seconds, when the provider says. */
  created?: number;
}

/** A tool call, normalised to the OpenAI form: `arguments` is always a JSON string. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A part of a multimodal user message (OpenAI form). */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

/** A conversation message in the OpenAI form; the local provider converts it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  /** Assistant messages that called tools. */
  tool_calls?: ToolCall[];
  /** Tool results: the call they answer. */
  tool_call_id?: string;
  /** Tool results: the tool's name (Ollama wants it). */
  name?: string;
}

/** A function the model may call (OpenAI `tools` entry). */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** Which tool the model must call: OpenAI's `tool_choice`. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** One chat request, provider-neutral. `model` is the provider's own id (prefix removed). */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  /** OpenAI `tool_choice` (`auto`, `none`, `required` or a named function); sent only with `tools`. Ollama has no equivalent and ignores it. */
  tool_choice?: ToolChoice;
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  seed?: number;
  stop?: string | string[];
}

/** Token counts. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * One normalised piece of a streamed answer. `content` arrives in fragments; `tool_calls`
 * arrive complete (assembled from deltas), once, before the chunk with `finish_reason`;
 * `usage` usually comes with or after the last chunk.
 */
export interface ChatChunk {
  content?: string;
  /**
   * Text fragments as JSON string literals, quotes and escapes included, each safe to copy into
   * a JSON document as it is (see `json-literals.ts`); never empty strings. Only in
   * `chatStreamBatches`: `chatStream` gives them back decoded as `content`.
   */
  literals?: string[];
  tool_calls?: ToolCall[];
  usage?: Usage;
  finish_reason?: string;
}

/** A whole (non-streamed) answer. */
export interface ChatResult {
  content: string;
  tool_calls: ToolCall[];
  usage?: Usage;
  finish_reason: string | null;
}

/**
 * One provider connection. Every call takes an AbortSignal: aborting stops the upstream
 * request and makes the call reject (or the stream throw) with an `AbortError`.
 */
export interface Provider {
  readonly kind: ProviderKind;
  /** The base URL, without a trailing slash. */
  readonly url: string;
  listModels(signal?: AbortSignal): Promise<ProviderModel[]>;
  chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult>;
  chatStream(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatChunk>;
  /**
   * The same stream, one array per network read (a fast provider's read holds many pieces):
   * one async step per read instead of per piece. Optional; see `chatStreamBatches` below.
   */
  chatStreamBatches?(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatChunk[]>;
  /** One vector per input, in order. */
  embed(model: string, inputs: string[], signal?: AbortSignal): Promise<number[][]>;
}

/**
 * A provider failed: refused the key, did not know the model, broke off, or could not be
 * reached. `status` is the upstream HTTP status when there was one. The message never holds keys.
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderKind,
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProviderError';
  }
}

/** The error an aborted provider call throws. */
export function abortError(): Error {
  const error = new Error('The request was aborted');
  error.name = 'AbortError';
  return error;
}

/** True for an abort, whichever client raised it. */
export function isAbortError(error: unknown): boolean {
  const e = error as { name?: string } | undefined;
  return e?.name === 'AbortError' || e?.name === 'APIUserAbortError';
}

/** The pieces of a batched stream one by one, each text literal decoded into a `content` piece. */
export async function* singles(batches: AsyncIterable<ChatChunk[]>): AsyncGenerator<ChatChunk> {
  for await (const batch of batches) {
    for (const chunk of batch) {
      if (!chunk.literals) yield chunk;
      else for (const literal of chunk.literals) yield { content: decodeLiterals([literal]) };
    }
  }
}

/** A provider's streamed answer in batches (one batch per piece when it cannot batch). */
export function chatStreamBatches(provider: Provider, request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatChunk[]> {
  if (provider.chatStreamBatches) return provider.chatStreamBatches(request, signal);
  return (async function* () {
    for await (const chunk of provider.chatStream(request, signal)) yield [chunk];
  })();
}
