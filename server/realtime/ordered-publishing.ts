import type { ClusterMessage, ClusterResponse } from 'socket.io-adapter';

/** The two publishing methods of a socket.io cluster adapter (protected in its types). */
interface Publishing {
  doPublish(message: ClusterMessage): Promise<string>;
  doPublishResponse(requesterUid: string, response: ClusterResponse): Promise<void>;
}

/** Messages waiting for the database before new ones are dropped (a database that stopped answering). */
const MAX_WAITING = 10_000;

/**
 * Makes a cluster adapter publish to the other instances one message after another, and deliver
 * to this instance's own sockets at once. Socket.io's cluster adapter delivers a broadcast here
 * only after its publish finished, and `@socket.io/postgres-adapter` publishes each message on
 * whichever pool connection is free: two events sent one after the other (a model's streamed
 * words, then the whole answer) could reach people here and on the other instances in the wrong
 * order, or here only after a slow database answered. Publishing in sequence keeps the order on
 * every instance; local delivery no longer waits for the database.
 */
export function publishInOrder<A extends object>(adapter: A, onError: (error: unknown) => void): A {
  const target = adapter as unknown as Publishing;
  const publish = target.doPublish.bind(target);
  const respond = target.doPublishResponse.bind(target);
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;
  let dropping = false;
  const enqueue = (send: () => Promise<unknown>) => {
    if (waiting >= MAX_WAITING) {
      if (!dropping) onError(new Error(`the database has not taken the last ${MAX_WAITING} realtime messages; later ones reach this instance only`));
      dropping = true;
      return;
    }
    dropping = false;
    waiting += 1;
    queue = queue
      .then(send)
      .then(
        () => undefined,
        (error: unknown) => onError(error),
      )
      .finally(() => {
        waiting -= 1;
      });
  };
  target.doPublish = (message) => {
    enqueue(() => publish(message));
    // No offsets: connection state recovery is not used with several instances.
    return Promise.resolve('');
  };
  target.doPublishResponse = (requesterUid, response) => {
    enqueue(() => respond(requesterUid, response));
    return Promise.resolve();
  };
  return adapter;
}
