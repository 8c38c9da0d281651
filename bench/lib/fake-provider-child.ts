/**
 * The loopback fake OpenAI-compatible provider as a child process for benchmarks. The reply is
 * chosen by the last user message: `bench tokens=N delay=MS` streams N pieces of `tok `, one
 * every MS milliseconds (0: as fast as possible). Prints `fake listening on <url>`.
 */
import { lastUserText, startFakeOpenAI } from '../../test/fixtures/fake-openai';

const fake = await startFakeOpenAI({ models: ['bench-model'], strictModels: false });
fake.reply((body) => {
  const text = lastUserText(body);
  const tokens = Number(/tokens=(\d+)/.exec(text)?.[1] ?? 3);
  const delayMs = Number(/delay=(\d+)/.exec(text)?.[1] ?? 0);
  return {
    pieces: Array.from({ length: tokens }, () => 'tok '),
    usage: { prompt_tokens: 10, completion_tokens: tokens, total_tokens: tokens + 10 },
    ...(delayMs > 0 ? { delayMs } : {}),
  };
});
// Keep memory flat over thousands of requests.
setInterval(() => fake.requests.splice(0), 1000).unref();
console.log(`fake listening on ${fake.url}`);
process.on('SIGTERM', () => {
  void fake.close().then(() => process.exit(0));
});
// Exit when the benchmark that started this process is gone.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void fake.close().finally(() => process.exit(0));
}, 500);
