import { fork, type Serializable } from 'node:child_process';

/** What a helper process is started from. */
export interface ProcessSpec {
  /** The script the process runs. */
  file: string;
  /** Node options before the script (e.g. `--import tsx` when running from source). */
  execArgv: string[];
  /** Its whole environment. */
  env: NodeJS.ProcessEnv;
  /** A short name for the process (shown by the OS's task manager where the starter supports it). */
  name: string;
}

/**
 * A started helper process with a message channel, whoever started it: plain Node's
 * `child_process.fork` or, in the packaged desktop app, Electron's `utilityProcess.fork`.
 * Messages are structured-cloned both ways.
 */
export interface ChildChannel {
  /** Sends a message; dropped once the process ended. */
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process ends (`signal` is null where the starter does not know it). */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** The process could not be started. */
  onError(listener: (error: Error) => void): void;
  /** The process's stderr, piped; null when the starter cannot pipe it. */
  readonly stderr: NodeJS.ReadableStream | null;
  /** True until the process ended (or the channel closed). */
  readonly connected: boolean;
  /** True once the process ended. */
  readonly exited: boolean;
  /** Closes the channel and ends the process. */
  kill(): void;
}

/** Starts a helper process. The service never imports Electron: the desktop app injects its own. */
export type ProcessStarter = (spec: ProcessSpec) => ChildChannel;

/**
 * The default under plain Node: `child_process.fork` of the Node binary. ELECTRON_RUN_AS_NODE
 * keeps an unpackaged Electron (`npm start` without an injected starter) working; a packaged app
 * has the RunAsNode fuse off and must inject `utilityProcess` instead (main/process-starter.ts).
 */
export const forkProcessStarter: ProcessStarter = (spec) => {
  const child = fork(spec.file, [], {
    execArgv: spec.execArgv,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...spec.env, ELECTRON_RUN_AS_NODE: '1' },
    serialization: 'advanced',
  });
  return {
    send: (message) => {
      if (child.connected) child.send(message as Serializable);
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', listener),
    onError: (listener) => child.on('error', listener),
    stderr: child.stderr,
    get connected() {
      return child.connected;
    },
    get exited() {
      return child.exitCode !== null || child.signalCode !== null;
    },
    kill: () => {
      if (child.connected) child.disconnect();
      child.kill();
    },
  };
};
