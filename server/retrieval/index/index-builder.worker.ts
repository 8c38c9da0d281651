// The index builder thread: reads a collection's chunks through its own database connection,
// builds the Orama index and encodes it as a snapshot, so the service's event loop never runs a
// rebuild. Messages: {id, build} in; {id, progress} while building; {id, bytes?, written} at the
// end (the snapshot transferred, not copied), or {id, error}.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { DatabaseLocation } from '../../platform/db/knex';
import { createRetrievalRepo, type RetrievalRepo } from '../retrieval.repo';
import { buildSnapshot, type BuilderMessage } from './build-snapshot';

// On Linux a nice value is per thread: the builder gives way to the thread answering requests
// when both want the CPU. (Elsewhere it would lower the whole process, so it is left alone.)
if (process.platform === 'linux') {
  try {
    os.setPriority(5);
  } catch {
    // Not permitted here: build at normal priority.
  }
}

/** The builder's own read-only connection: the repo it reads through, and how to close it. */
interface Connection {
  repo: RetrievalRepo;
  close(): Promise<void>;
}

let connection: { key: string; opened: Promise<Connection> } | undefined;
let queue: Promise<void> = Promise.resolve();

async function open(location: DatabaseLocation): Promise<Connection> {
  const { openDatabase } = await import('../../platform/db/knex');
  const db = openDatabase({ ...location, poolSize: 1, readOnly: true });
  return { repo: createRetrievalRepo(db), close: () => db.destroy() };
}

/** The connection to `location`, opened on first use (one at a time: another location closes the one before). */
function connectionTo(location: DatabaseLocation): Promise<Connection> {
  const key = JSON.stringify(location);
  if (connection?.key !== key) {
    void connection?.opened.then((c) => c.close()).catch(() => undefined);
    connection = { key, opened: open(location) };
  }
  return connection.opened;
}

parentPort?.on('message', (message: BuilderMessage) => {
  if (message.type === 'close') {
    void (connection ? connection.opened.then((c) => c.close()) : Promise.resolve()).finally(() => parentPort!.postMessage({ id: message.id, closed: true }));
    return;
  }
  // One build at a time: two builds of one collection (a rebuild after it was forgotten, while
  // its last save still runs) never write its snapshot at once, and they do not share the CPU.
  queue = queue.then(async () => {
    try {
      const reply = await buildSnapshot((await connectionTo(message.database)).repo, message, (done, total) => parentPort!.postMessage({ id: message.id, progress: [done, total] }));
      parentPort!.postMessage({ id: message.id, ...reply }, reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []);
    } catch (error) {
      parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});
