/** Electron's `process.parentPort` in a utility process: MessagePort-style messages. */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

/** The message channel of a helper process to the service that started it (see process-starter.ts). */
export interface ParentChannel {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** The service closed the channel (a utility process is ended by Electron instead: never called there). */
  onClose(listener: () => void): void;
}

/**
 * The channel to the parent, whichever way this process was started: Electron's utilityProcess
 * (`process.parentPort`, messages wrapped in `{data}`) or Node's fork (`process.send`).
 */
export function parentChannel(proc: NodeJS.Process & { parentPort?: ParentPortLike } = process): ParentChannel {
  const port = proc.parentPort;
  if (port) {
    return {
      send: (message) => port.postMessage(message),
      onMessage: (listener) => void port.on('message', (event) => listener(event.data)),
      onClose: () => undefined,
    };
  }
  return {
    send: (message) => void proc.send?.(message as never),
    onMessage: (listener) => void proc.on('message', listener),
    onClose: (listener) => void proc.on('disconnect', listener),
  };
}
