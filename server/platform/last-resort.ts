import type { Logger } from './log';

/** More escaped errors than this within {@link BURST_WINDOW_MS} mean the process is broken beyond one request. */
const BURST = 20;
const BURST_WINDOW_MS = 60_000;

/**
 * The process's last resort against a fault that escapes every handler: an exception thrown by
 * a callback nothing wraps, or a rejected promise nobody awaits. Node would end the process, and
 * with it the service for everyone on the LAN. Requests already fail alone (Express catches what
 * routes throw; the listeners' own callbacks are guarded where they are, see
 * platform/http/guarded.ts), so what reaches this is one operation gone wrong: it is logged
 * with its stack and the service keeps serving. A burst of them (more than 20 in a minute) says
 * the state is broken beyond one operation: then the process ends with a fatal line, for the
 * desktop app or a supervisor to restart it. Returns the function that removes the handlers.
 */
export function installLastResort(
  log: Pick<Logger, 'error' | 'fatal'>,
  host: { on: NodeJS.Process['on']; off: NodeJS.Process['off']; exit: (code: number) => void } = process,
): () => void {
  const recent: number[] = [];
  const escaped = (kind: string) => (error: unknown) => {
    const now = Date.now();
    recent.push(now);
    while (recent.length > 0 && recent[0]! < now - BURST_WINDOW_MS) recent.shift();
    if (recent.length > BURST) {
      log.fatal({ err: error }, `${kind}: ${recent.length} errors escaped their handlers within a minute; stopping`);
      host.exit(1);
      return;
    }
    log.error({ err: error }, `${kind} escaped every handler; the service keeps running`);
  };
  const onException = escaped('uncaught exception');
  const onRejection = escaped('unhandled promise rejection');
  host.on('uncaughtException', onException);
  host.on('unhandledRejection', onRejection);
  return () => {
    host.off('uncaughtException', onException);
    host.off('unhandledRejection', onRejection);
  };
}
