/**
 * The built-in model runtime: a CHILD PROCESS (not a worker thread, despite the build's
 * `.worker.ts` naming for separate entry points) that owns node-llama-cpp. llama.cpp aborts the
 * whole process on some malformed files (GGML_ASSERT), so it must never share the service's
 * process. Speaks runtime/protocol.ts over the channel to its parent (platform/parent-channel.ts).
 */
import {
  getLlama,
  LlamaChat,
  LlamaLogLevel,
  resolveChatWrapper,
  type ChatHistoryItem,
  type ChatWrapper,
  type ChatModelFunctionCall,
  type ChatModelFunctions,
  type Llama,
  type LlamaContext,
  type LlamaEmbeddingContext,
  type LlamaModel,
  type LlamaRankingContext,
} from 'node-llama-cpp';
import { parentChannel } from '../../platform/parent-channel';
import type { ChatMessage, ToolCall } from '../../providers';
import { createChunkBatcher } from './chunk-batcher';
import type { RuntimeChatResult, RuntimeErrorCode, RuntimeModel, RuntimeReply, RuntimeRequest, RuntimeSettings } from './protocol';

class RuntimeError extends Error {
  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const settings = JSON.parse(process.env.PARLEY_RUNTIME_SETTINGS ?? '{}') as RuntimeSettings;
// Node's fork (IPC) or Electron's utilityProcess (parentPort) in the packaged desktop app.
const parent = parentChannel();
const send = (reply: RuntimeReply) => parent.send(reply);

let llamaPromise: Promise<Llama> | undefined;
const llama = () =>
  (llamaPromise ??= getLlama({
    build: 'never',
    gpu: settings.gpuLayers === 0 ? false : 'auto',
    maxThreads: settings.threads,
    logLevel: LlamaLogLevel.error,
    progressLogs: false,
  }));

interface Loaded {
  id: string;
  model: LlamaModel;
  estimate: number;
  context?: LlamaContext;
  embedding?: LlamaEmbeddingContext;
  /** A reranker's cross-encoder context (the model scores query and document together). */
  ranking?: LlamaRankingContext;
  /**
   * The model's chat template, resolved once: resolving it (node-llama-cpp checks a Jinja
   * template against sample chats) took longer than the whole answer of a small model, and
   * `new LlamaChat` does it again every time unless it is given one.
   */
  chatWrapper?: ChatWrapper;
  busy: number;
  lastUsed: number;
}
const loaded = new Map<string, Loaded>();
const loading = new Map<string, Promise<Loaded>>();
const aborts = new Map<number, AbortController>();

const announceLoaded = () => send({ type: 'loaded', ids: [...loaded.keys()] });

async function unload(entry: Loaded): Promise<void> {
  loaded.delete(entry.id);
  await entry.embedding?.dispose();
  await entry.ranking?.dispose();
  await entry.context?.dispose();
  await entry.model.dispose();
  announceLoaded();
}

/**
 * Text generated within this many ms leaves in one message (see chunk-batcher.ts): one display
 * frame at 60 Hz, so a reader cannot see the grouping, while each message saved is an IPC read,
 * an SSE write and a client read (≈ 0.7 ms of CPU together, measured by bench/builtin.ts) that
 * no longer competes with the model for the cores.
 */
const CHUNK_INTERVAL_MS = 16;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Frees idle models (least recently used first) until `needed` bytes fit in the budget. */
async function makeRoom(needed: number): Promise<void> {
  for (;;) {
    const used = [...loaded.values()].reduce((sum, e) => sum + e.estimate, 0);
    if (loaded.size === 0 || used + needed <= settings.memoryBudget) return;
    const idle = [...loaded.values()].filter((e) => e.busy === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (idle) await unload(idle);
    else await sleep(50); // every loaded model is answering: wait for one to finish
  }
}

/** The model, loaded on first use (one per memory budget). */
async function use(model: RuntimeModel): Promise<Loaded> {
  const existing = loaded.get(model.id);
  if (existing) return existing;
  let pending = loading.get(model.id);
  if (!pending) {
    pending = (async () => {
      await makeRoom(model.ramEstimate);
      const instance = await (await llama())
        .loadModel({ modelPath: model.path, gpuLayers: settings.gpuLayers === 'auto' ? 'auto' : settings.gpuLayers })
        .catch((error: unknown) => {
          throw new RuntimeError('load', `The model file could not be loaded: ${(error as Error).message}`);
        });
      const entry: Loaded = { id: model.id, model: instance, estimate: model.ramEstimate, busy: 0, lastUsed: Date.now() };
      loaded.set(model.id, entry);
      announceLoaded();
      return entry;
    })().finally(() => loading.delete(model.id));
    loading.set(model.id, pending);
  }
  return pending;
}

async function chatContext(entry: Loaded): Promise<LlamaContext> {
  if (!entry.context) {
    const train = entry.model.trainContextSize;
    const size = settings.contextSize > 0 ? Math.min(settings.contextSize, train) : Math.min(train, 8192);
    entry.context = await entry.model.createContext({ contextSize: size, sequences: settings.sequences, threads: settings.threads });
  }
  return entry.context;
}

const textOf = (content: ChatMessage['content']): string =>
  content === null ? '' : typeof content === 'string' ? content : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

const parseArguments = (raw: string): unknown => {
  try {
    return JSON.parse(raw || '{}');
  } catch {
    return raw;
  }
};

/** Default answer length when the request sets none: half the context, at most 4096, never past its end. */
const defaultMaxTokens = (contextSize: number, promptTokens: number) => Math.max(1, Math.min(4096, Math.floor(contextSize / 2), contextSize - promptTokens - 1));

/**
 * Tokens of the last user message, for the context checks below, or an upper bound when that
 * is enough to decide them. Plain text never makes more tokens than UTF-8 bytes (+1 for a
 * tokenizer's leading space), so a message whose bytes fit leaves the tokenizer alone: the
 * model tokenizes the whole chat again anyway, and for a long message (a RAG prompt) the extra
 * pass cost a visible part of the time to first token.
 */
function lastUserTokens(model: LlamaModel, messages: ChatMessage[], asked: number | undefined, contextSize: number): number {
  const last = messages.findLast((m) => m.role === 'user');
  if (!last) return 0;
  const text = textOf(last.content);
  const bound = Buffer.byteLength(text, 'utf8') + 1;
  const fits = asked !== undefined ? bound + asked < contextSize : defaultMaxTokens(contextSize, bound) === defaultMaxTokens(contextSize, 0);
  return fits ? bound : model.tokenize(text).length;
}

/** OpenAI-form messages → node-llama-cpp chat history ending with an empty model turn. */
function toHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, textOf(m.content));
  for (const m of messages) {
    if (m.role === 'system') history.push({ type: 'system', text: textOf(m.content) });
    else if (m.role === 'user') history.push({ type: 'user', text: textOf(m.content) });
    else if (m.role === 'assistant') {
      const response: Array<string | ChatModelFunctionCall> = [];
      const text = textOf(m.content);
      if (text) response.push(text);
      for (const call of m.tool_calls ?? []) {
        response.push({ type: 'functionCall', name: call.function.name, params: parseArguments(call.function.arguments), result: results.get(call.id) ?? '' });
      }
      history.push({ type: 'model', response });
    }
  }
  const last = history.at(-1);
  // A turn that ended in tool calls (with their results) is continued; otherwise a new one starts.
  if (!(last?.type === 'model' && last.response.some((r) => typeof r !== 'string'))) history.push({ type: 'model', response: [] });
  return history;
}

/** OpenAI tools → node-llama-cpp functions (parameters must be a JSON schema it can turn into a grammar). */
function toFunctions(tools: RuntimeRequest & { type: 'chat' }): ChatModelFunctions | undefined {
  if (!tools.tools || tools.tools.length === 0) return undefined;
  const functions: Record<string, ChatModelFunctions[string]> = {};
  for (const tool of tools.tools) {
    functions[tool.function.name] = {
      description: tool.function.description,
      ...(tool.function.parameters && Object.keys((tool.function.parameters.properties as object | undefined) ?? {}).length > 0
        ? { params: tool.function.parameters as never }
        : {}),
    };
  }
  return functions;
}

async function chat(request: RuntimeRequest & { type: 'chat' }, signal: AbortSignal): Promise<RuntimeChatResult> {
  const entry = await use(request.model);
  entry.busy += 1;
  try {
    const context = await chatContext(entry);
    while (context.sequencesLeft === 0) {
      if (signal.aborted) throw new RuntimeError('aborted', 'aborted');
      await sleep(10);
    }
    const sequence = context.getSequence();
    try {
      entry.chatWrapper ??= resolveChatWrapper(entry.model);
      const llamaChat = new LlamaChat({ contextSequence: sequence, chatWrapper: entry.chatWrapper });
      const history = toHistory(request.messages);
      const asked = request.options.maxTokens;
      const lastTokens = lastUserTokens(entry.model, request.messages, asked, sequence.contextSize);
      if (lastTokens + (asked ?? 1) >= sequence.contextSize) {
        throw new RuntimeError('bad-request', `The message is too long for this model's context: ${lastTokens} tokens${asked ? ` plus ${asked} to answer` : ''} do not fit in ${sequence.contextSize}. Shorten it${asked ? ', lower max_tokens,' : ''} or raise the context size.`);
      }
      // Without a limit a model that never emits its end token would run on through context shifts.
      const maxTokens = asked ?? defaultMaxTokens(sequence.contextSize, lastTokens);
      let functions: ChatModelFunctions | undefined;
      try {
        functions = toFunctions(request);
      } catch (error) {
        throw new RuntimeError('tools', `The tool definitions cannot be used for function calling: ${(error as Error).message}`);
      }
      const chunks = createChunkBatcher((text) => send({ type: 'chunk', id: request.id, text }), CHUNK_INTERVAL_MS);
      const response = await llamaChat
        .generateResponse(history, {
          signal,
          stopOnAbortSignal: true,
          onTextChunk: chunks.push,
          maxTokens,
          ...(request.options.temperature !== undefined ? { temperature: request.options.temperature } : {}),
          ...(request.options.topP !== undefined ? { topP: request.options.topP } : {}),
          ...(request.options.seed !== undefined ? { seed: request.options.seed } : {}),
          ...(request.options.stop?.length ? { customStopTriggers: request.options.stop } : {}),
          ...(functions ? { functions } : {}),
        } as Parameters<LlamaChat['generateResponse']>[1])
        .finally(chunks.flush)
        .catch((error: unknown) => {
          if (signal.aborted) throw new RuntimeError('aborted', 'aborted');
          const message = (error as Error).message;
          if (functions && /grammar|schema|function/i.test(message)) throw new RuntimeError('tools', `Function calling failed for this model: ${message}`);
          throw error;
        });
      if (signal.aborted) throw new RuntimeError('aborted', 'aborted');
      const calls = ((response as { functionCalls?: Array<{ functionName: string; params: unknown }> }).functionCalls ?? []).map(
        (call, i): ToolCall => ({ id: `call_${request.id}_${i}`, type: 'function', function: { name: call.functionName, arguments: JSON.stringify(call.params ?? {}) } }),
      );
      const meter = sequence.tokenMeter;
      const prompt = meter.usedInputTokens;
      const completion = meter.usedOutputTokens;
      const stop = response.metadata.stopReason;
      llamaChat.dispose({ disposeSequence: false });
      return {
        content: response.response,
        toolCalls: calls,
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        finishReason: calls.length > 0 ? 'tool_calls' : stop === 'maxTokens' ? 'length' : 'stop',
      };
    } finally {
      sequence.dispose();
    }
  } finally {
    entry.busy -= 1;
    entry.lastUsed = Date.now();
  }
}

async function embed(request: RuntimeRequest & { type: 'embed' }): Promise<number[][]> {
  const entry = await use(request.model);
  entry.busy += 1;
  try {
    entry.embedding ??= await entry.model.createEmbeddingContext({ threads: settings.threads });
    const out: number[][] = [];
    for (const input of request.inputs) out.push([...(await entry.embedding.getEmbeddingFor(input)).vector]);
    return out;
  } finally {
    entry.busy -= 1;
    entry.lastUsed = Date.now();
  }
}

/** Scores each document's relevance to the query with a reranker model (0..1, in the order given). */
async function rank(request: RuntimeRequest & { type: 'rank' }): Promise<number[]> {
  const entry = await use(request.model);
  entry.busy += 1;
  try {
    if (!entry.model.fileInsights.supportsRanking) throw new RuntimeError('bad-request', 'this model is not a reranker (it has no classification head)');
    entry.ranking ??= await entry.model.createRankingContext({ threads: settings.threads });
    // Documents longer than the context are scored by their best-scoring part.
    return await entry.ranking.rankAll(request.query, request.documents, { onOverflow: 'maxChunk' });
  } finally {
    entry.busy -= 1;
    entry.lastUsed = Date.now();
  }
}

/** Loads a file and lets it go: a malformed one fails here (or kills this process) instead of later. */
async function probe(path: string): Promise<void> {
  const model = await (await llama()).loadModel({ modelPath: path, gpuLayers: 0 }).catch((error: unknown) => {
    throw new RuntimeError('load', `llama.cpp could not load it: ${(error as Error).message}`);
  });
  await model.dispose();
}

function fail(id: number, error: unknown): void {
  const code = error instanceof RuntimeError ? error.code : 'failed';
  send({ type: 'error', id, code, message: error instanceof Error ? error.message : String(error) });
}

parent.onMessage((message) => {
  const request = message as RuntimeRequest;
  if (request.type === 'abort') {
    aborts.get(request.id)?.abort();
    return;
  }
  if (request.type === 'unload') {
    for (const entry of [...loaded.values()]) if ((!request.modelId || entry.id === request.modelId) && entry.busy === 0) void unload(entry);
    return;
  }
  if (request.type === 'probe') {
    probe(request.path).then(
      () => send({ type: 'probe-done', id: request.id }),
      (error: unknown) => fail(request.id, error),
    );
    return;
  }
  const controller = new AbortController();
  aborts.set(request.id, controller);
  const run =
    request.type === 'chat'
      ? chat(request, controller.signal).then((result) => send({ type: 'chat-done', id: request.id, result }))
      : request.type === 'rank'
        ? rank(request).then((scores) => send({ type: 'rank-done', id: request.id, scores }))
        : embed(request).then((vectors) => send({ type: 'embed-done', id: request.id, vectors }));
  run.catch((error: unknown) => fail(request.id, error)).finally(() => aborts.delete(request.id));
});

// The service went away (or closed the channel): nothing else would ever stop this process.
parent.onClose(() => process.exit(0));

void llama().then(
  (instance) => send({ type: 'ready', gpu: instance.gpu, threads: settings.threads }),
  (error: unknown) => {
    process.stderr.write(`the llama.cpp runtime could not start: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
