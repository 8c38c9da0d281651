// The ingestion worker thread: extraction, chunking, analysis and offline embedding run here, off
// the service's event loop, under the memory limit it was started with. Messages: {id, jobs} (a
// batch of files) → {id, outcomes} (each file's result or its error), with the vectors and term
// arrays transferred, not copied; {id, preview} (one file's text for its preview) → {id, preview}.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { prepareMany, transferables, type PrepareJob } from './prepare';
import { previewText, type PreviewJob } from './preview';

// On Linux a nice value is per thread: extraction gives way to the thread answering requests
// when both want the CPU (a zip bomb being refused must not slow /health). Elsewhere it would
// lower the whole process, so it is left alone.
if (process.platform === 'linux') {
  try {
    os.setPriority(5);
  } catch {
    // Not permitted here: work at normal priority.
  }
}

parentPort?.on('message', (message: { id: number; jobs?: PrepareJob[]; preview?: PreviewJob }) => {
  if (message.preview) {
    void previewText(message.preview).then((preview) => parentPort!.postMessage({ id: message.id, preview }));
    return;
  }
  void prepareMany(message.jobs ?? []).then((outcomes) => {
    parentPort!.postMessage({ id: message.id, outcomes }, transferables(outcomes));
  });
});
