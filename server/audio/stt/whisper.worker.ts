// The speech worker thread: decoding uploads and whisper.cpp run here, off the service's event
// loop. One message per request ({id, ...EngineRequest}); one reply each ({id, ...EngineReply}).
import { parentPort } from 'node:worker_threads';
import { createWhisperEngine } from './whisper-engine';
import type { EngineRequest } from './protocol';

const engine = createWhisperEngine();
parentPort?.on('message', (message: EngineRequest & { id: number }) => {
  void engine.handle(message).then((reply) => parentPort!.postMessage({ ...reply, id: message.id }));
});
