// The ingestion worker thread: extraction, chunking, analysis and offline embedding run here, off
// the service's event loop. One message per batch of files: {id, jobs} in; {id, outcomes} out
// (each file's result or its error), with the vectors and term arrays transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { prepareMany, transferables, type PrepareJob } from './prepare';

parentPort?.on('message', (message: { id: number; jobs: PrepareJob[] }) => {
  void prepareMany(message.jobs).then((outcomes) => {
    parentPort!.postMessage({ id: message.id, outcomes }, transferables(outcomes));
  });
});
