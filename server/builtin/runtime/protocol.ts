import type { ChatMessage, ToolSpec, Usage, ToolCall } from '../../providers';

/** Settings the runtime process starts with. */
export interface RuntimeSettings {
  /** CPU threads for inference (already resolved from the core count). */
  threads: number;
  /** `auto` (as many layers as fit) or a count; 0 = CPU only. */
  gpuLayers: 'auto' | number;
  /** Bytes the loaded models may take together. */
  memoryBudget: number;
  /** Chat context size in tokens; 0 = the model's own, capped. */
  contextSize: number;
  /** Parallel sequences per chat model (concurrent requests answered at once). */
  sequences: number;
}

/** A model file the runtime may load. */
export interface RuntimeModel {
  id: string;
  path: string;
  /** Rough bytes it takes loaded (for the memory budget). */
  ramEstimate: number;
}

/** Generation options of one chat request. */
export interface RuntimeChatOptions {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  seed?: number;
  stop?: string[];
}

/** Parent → runtime. */
export type RuntimeRequest =
  | { type: 'chat'; id: number; model: RuntimeModel; messages: ChatMessage[]; tools?: ToolSpec[]; options: RuntimeChatOptions }
  | { type: 'embed'; id: number; model: RuntimeModel; inputs: string[] }
  | { type: 'rank'; id: number; model: RuntimeModel; query: string; documents: string[] }
  | { type: 'probe'; id: number; path: string }
  | { type: 'abort'; id: number }
  | { type: 'unload'; modelId?: string };

/** The end of a chat request. */
export interface RuntimeChatResult {
  content: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: 'stop' | 'length' | 'tool_calls';
}

/** Runtime → parent. */
export type RuntimeReply =
  | { type: 'ready'; gpu: string | false; threads: number }
  | { type: 'chunk'; id: number; text: string }
  | { type: 'chat-done'; id: number; result: RuntimeChatResult }
  | { type: 'embed-done'; id: number; vectors: number[][] }
  /** One relevance (0..1) per document, in the order given. */
  | { type: 'rank-done'; id: number; scores: number[] }
  | { type: 'probe-done'; id: number }
  | { type: 'error'; id: number; message: string; code: RuntimeErrorCode }
  | { type: 'loaded'; ids: string[] };

/**
 * Why a request failed: `aborted` by the caller, `bad-request` (the input cannot be answered:
 * context too long, tools the model cannot take), `load` (the file did not load), `failed`.
 */
export type RuntimeErrorCode = 'aborted' | 'bad-request' | 'tools' | 'load' | 'failed';
