/**
 * node-llama-cpp called directly, in a process of its own (as Parley's runtime is), for
 * bench/builtin.ts: loads the GGUF given as the first argument with the threads and context size
 * given next, then answers `{type: 'run', prompt, maxTokens}` messages with the timings of one
 * greedy answer, measured from taking a sequence to the first text, and its token counts.
 * Everything that decides the tokens is as in server/builtin/runtime/llama-runtime.worker.ts:
 * threads, context size, 4 sequences, the chat wrapper resolved once, a fresh sequence and
 * `LlamaChat` per answer, history `[user, empty model turn]`, temperature 0.
 */
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';

const [modelPath, threadsArg, contextArg] = process.argv.slice(2);
const threads = Number(threadsArg);
const llama = await getLlama({ build: 'never', gpu: false, maxThreads: threads, logLevel: LlamaLogLevel.error, progressLogs: false });
const model = await llama.loadModel({ modelPath: modelPath!, gpuLayers: 0 });
const context = await model.createContext({ contextSize: Number(contextArg), sequences: 4, threads });
// Resolved once, as a program keeping a LlamaChatSession would.
const chatWrapper = resolveChatWrapper(model);

process.on('message', async (message: { type: 'run'; prompt: string; maxTokens: number }) => {
  const started = performance.now();
  const sequence = context.getSequence();
  const chat = new LlamaChat({ contextSequence: sequence, chatWrapper });
  let ttftMs = NaN;
  let lastTextMs = NaN;
  const answer = await chat.generateResponse(
    [
      { type: 'user', text: message.prompt },
      { type: 'model', response: [] },
    ],
    {
      maxTokens: message.maxTokens,
      temperature: 0,
      onTextChunk: () => {
        lastTextMs = performance.now() - started;
        if (Number.isNaN(ttftMs)) ttftMs = lastTextMs;
      },
    },
  );
  const totalMs = performance.now() - started;
  const tokens = sequence.tokenMeter.usedOutputTokens;
  const promptTokens = sequence.tokenMeter.usedInputTokens;
  chat.dispose({ disposeSequence: false });
  sequence.dispose();
  process.send?.({ ttftMs, lastTextMs, totalMs, tokens, promptTokens, text: answer.response });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
