import type { StopAnswerRequest, StopAnswerResponse } from '../../../server/contracts/completions';
import { ApiError, authHeaders, CLIENT_ERRORS, errorOf, http, unreachable } from './http';
import type { MessageToolStep, Source } from './chats';
import type { UsedMemory } from '../../../server/contracts/memories';

/** The abilities a completion may ask for (`features`). */
export interface CompletionFeatures {
  web_search?: boolean;
  code_interpreter?: boolean;
  image_generation?: boolean;
  memory?: boolean;
}

/** What the UI sends to POST /api/chat/completions. */
export interface CompletionRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  stream: true;
  /** Save the turn to this chat. */
  chat_id?: string;
  /** The saved message this turn follows (for a regeneration: the user message answered again). */
  parent_id?: string | null;
  /** Only a new answer is saved, as a sibling of earlier ones. */
  regenerate?: boolean;
  session_id?: string;
  /** Attachments and knowledge bases for this message. */
  files?: Array<{ type: 'file' | 'collection' | 'note'; id: string }>;
  tool_ids?: string[];
  /** This page's name for the answer (with `chat_id`), so Stop can name it before the saved id arrives. */
  stream_id?: string;
  /** Abilities turned on for this answer: `web_search` searches the web first, the code interpreter, image generation, `memory` (the person's relevant memories join the model's context). */
  features?: CompletionFeatures;
}

/** Tells the service the person stopped an answer, and what of it their screen showed (that is what is kept). */
export function stopAnswer(body: StopAnswerRequest): Promise<StopAnswerResponse> {
  return http.post<StopAnswerResponse>('/api/chat/stop', body);
}

/** A tool or pipeline status line (extra stream field). */
export interface StreamStatus {
  description?: string;
  done?: boolean;
  action?: string;
  /** Image generation: percent done, when the engine tells. */
  progress?: number;
  /** The step failed (`description` says why). */
  error?: boolean;
  /** `knowledge_unmatched`: the knowledge bases searched in which no passage matched. */
  names?: string[];
  [k: string]: unknown;
}

/** Callbacks for one streamed answer. */
export interface StreamHandlers {
  onDelta(text: string): void;
  onSources?(sources: Source[]): void;
  /** The person's memories the answer was given. */
  onMemories?(memories: UsedMemory[]): void;
  onStatus?(status: StreamStatus): void;
  /** A tool call that finished. */
  onToolStep?(step: MessageToolStep): void;
  onFollowUps?(items: string[]): void;
  /** The saved chat and answer ids, when the turn is saved. */
  onSaved?(chatId: string, messageId: string | undefined): void;
  /** Token counts, when the provider reports them. */
  onUsage?(usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number }): void;
  /** Why the answer ended (`stop`, `length` when cut by the token limit, …). */
  onFinish?(reason: string): void;
}

/** Splits an SSE byte stream into `data:` payloads (handles events cut across reads). */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = event
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data) yield data;
      }
    }
    const rest = buffer.trim();
    if (rest.startsWith('data:')) yield rest.slice(5).trim();
  } finally {
    reader.releaseLock();
  }
}

interface Chunk {
  id?: string;
  chat_id?: string;
  message_id?: string;
  choices?: Array<{ delta?: { content?: string | null }; message?: { content?: string }; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  sources?: Source[];
  memories?: UsedMemory[];
  status?: StreamStatus;
  tool_step?: MessageToolStep;
  follow_ups?: string[];
  error?: { message?: string; detail?: string } | string;
  detail?: string;
}

/** Streams one answer; resolves when the stream ends (or is aborted through `signal`). */
export async function streamCompletion(body: CompletionRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...authHeaders() },
      body: JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') return;
    throw unreachable();
  }
  if (!res.ok) throw await errorOf(res);
  if (!res.body) throw new ApiError(res.status, 'The answer had no body.', CLIENT_ERRORS.noBody);
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const full = (await res.json()) as Chunk;
    const text = full.choices?.[0]?.message?.content ?? '';
    if (text) handlers.onDelta(text);
    if (full.usage) handlers.onUsage?.(full.usage);
    if (full.choices?.[0]?.finish_reason) handlers.onFinish?.(full.choices[0].finish_reason);
    return;
  }
  try {
    for await (const data of sseData(res.body)) {
      if (data === '[DONE]') break;
      let chunk: Chunk;
      try {
        chunk = JSON.parse(data) as Chunk;
      } catch {
        continue;
      }
      if (chunk.error) {
        const e = chunk.error;
        throw new ApiError(500, typeof e === 'string' ? e : (e.message ?? e.detail ?? 'The model answered with an error.'), typeof e === 'string' || e.message || e.detail ? undefined : CLIENT_ERRORS.modelError);
      }
      if (chunk.chat_id) handlers.onSaved?.(chunk.chat_id, chunk.message_id);
      if (chunk.sources?.length) handlers.onSources?.(chunk.sources);
      if (chunk.memories?.length) handlers.onMemories?.(chunk.memories);
      if (chunk.status) handlers.onStatus?.(chunk.status);
      if (chunk.tool_step) handlers.onToolStep?.(chunk.tool_step);
      if (chunk.follow_ups?.length) handlers.onFollowUps?.(chunk.follow_ups);
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) handlers.onDelta(text);
      if (chunk.usage) handlers.onUsage?.(chunk.usage);
      const reason = chunk.choices?.[0]?.finish_reason;
      if (reason) handlers.onFinish?.(reason);
    }
  } catch (error) {
    if ((error as Error).name === 'AbortError' || signal.aborted) return;
    throw error;
  }
}
