/** Raised when work did not finish within its deadline. */
export class DeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`No answer within ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

/**
 * Runs `work` with a signal that aborts after `ms` (or when `parent` aborts), so a provider
 * that never answers cannot hold a request: the upstream call is cancelled, not just ignored.
 */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>, parent?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const signal = parent ? AbortSignal.any([parent, controller.signal]) : controller.signal;
  try {
    return await work(signal);
  } catch (error) {
    if (controller.signal.aborted && !parent?.aborted) throw new DeadlineError(ms);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
