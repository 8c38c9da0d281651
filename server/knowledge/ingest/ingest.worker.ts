// The ingestion worker thread: extraction, chunking and offline embedding run here, off the
// service's event loop. Messages: {id, job} in; {id, ok, result | error, failed} out.
import { parentPort } from 'node:worker_threads';
import { IngestError } from './extraction-error';
import { prepare, type PrepareJob } from './prepare';

parentPort?.on('message', (message: { id: number; job: PrepareJob }) => {
  prepare(message.job).then(
    (result) => {
      const transfer = result.vectors ? [result.vectors.buffer as ArrayBuffer] : [];
      parentPort!.postMessage({ id: message.id, ok: true, result }, transfer);
    },
    (error: unknown) => {
      parentPort!.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error), reason: error instanceof IngestError });
    },
  );
});
