import type { ChildChannel, ProcessStarter } from '../server';
import type { UtilityProcessModuleLike } from './facade';

/**
 * The service's helper processes (the built-in model runtime) started with Electron's
 * utilityProcess. The packaged app has the RunAsNode fuse off (electron-builder.yml), so the
 * service's default (`fork` of the executable with ELECTRON_RUN_AS_NODE) is refused there.
 * Adapts utilityProcess's MessagePort-style channel to the service's ChildChannel; the helper
 * reads `process.parentPort` (server/platform/parent-channel.ts).
 */
export function utilityProcessStarter(utilityProcess: UtilityProcessModuleLike): ProcessStarter {
  return (spec): ChildChannel => {
    // RunAsNode is refused by the packaged app and means nothing to a utility process.
    const env = { ...spec.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = utilityProcess.fork(spec.file, [], { env, execArgv: spec.execArgv, stdio: ['ignore', 'ignore', 'pipe'], serviceName: spec.name });
    let exited = false;
    const exitListeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void> = [];
    child.on('exit', (code) => {
      if (exited) return;
      exited = true;
      for (const listener of exitListeners.splice(0)) listener(code, null);
    });
    return {
      send: (message) => {
        if (!exited) child.postMessage(message);
      },
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void exitListeners.push(listener),
      // utilityProcess has no start-up error event: a process that cannot start exits.
      onError: () => undefined,
      stderr: child.stderr,
      get connected() {
        return !exited;
      },
      get exited() {
        return exited;
      },
      kill: () => {
        if (!exited) child.kill();
      },
    };
  };
}
