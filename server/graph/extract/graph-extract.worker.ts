// The graph extraction worker thread: compromise runs here, off the service's event loop
// (≈ 30–50 ms of CPU per 1,000 characters). Messages: {id, texts} in; {id, ok, result | error} out.
import { parentPort } from 'node:worker_threads';
import { extractOffline } from './offline';

parentPort?.on('message', (message: { id: number; texts: string[] }) => {
  extractOffline(message.texts).then(
    (result) => parentPort!.postMessage({ id: message.id, ok: true, result }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
