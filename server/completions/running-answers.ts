/** How long a finished answer, or a stop that came before its answer, stays known by its stream id. */
const REMEMBER_MS = 2 * 60_000;
/** Most entries kept (the oldest go first): a client inventing stream ids cannot grow the map without end. */
const MAX_ENTRIES = 10_000;

/** One answer streamed by this process, named by the caller's `stream_id`. */
export class RunningAnswer {
  private readonly controller = new AbortController();
  private shownText: string | undefined;
  private resolveEnded!: () => void;
  /** Resolves when the answer is saved as it ended (or its request failed). */
  readonly ended = new Promise<void>((resolve) => (this.resolveEnded = resolve));
  /** The saved answer's id, once the turn is recorded. */
  messageId: string | undefined;
  endedAt: number | undefined;

  constructor(
    readonly userId: string,
    readonly chatId: string,
  ) {}

  /** Aborted when the person stops the answer (besides the client leaving). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The text the person had on screen when they stopped, if they did. */
  get shown(): string | undefined {
    return this.shownText;
  }

  /** Stops the answer where the person's screen was. */
  stop(shown: string): void {
    this.shownText ??= shown;
    this.controller.abort();
  }

  /** The answer is saved; later stops find it by its id. */
  end(now: number): void {
    this.endedAt = now;
    this.resolveEnded();
  }
}

/**
 * The answers streaming in this process, by caller and stream id, so that Stop can name an
 * answer before its saved id reached the client, and can come before, during or after the
 * service notices the client left. A stop that arrives before its answer's request is kept
 * and stops that answer as soon as it begins.
 */
export class RunningAnswers {
  private readonly runs = new Map<string, RunningAnswer>();
  private readonly early = new Map<string, { chatId: string; shown: string; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  private static key(userId: string, streamId: string): string {
    return `${userId}\n${streamId}`;
  }

  private prune(): void {
    const oldest = this.now() - REMEMBER_MS;
    for (const [key, run] of this.runs) if (run.endedAt !== undefined && run.endedAt < oldest) this.runs.delete(key);
    for (const [key, stop] of this.early) if (stop.at < oldest) this.early.delete(key);
    for (const map of [this.runs, this.early] as Array<Map<string, unknown>>) {
      for (const key of map.keys()) {
        if (map.size <= MAX_ENTRIES) break;
        map.delete(key);
      }
    }
  }

  /** Registers an answer about to be streamed; stopped at once when its stop came first. */
  begin(userId: string, streamId: string, chatId: string): RunningAnswer {
    this.prune();
    const key = RunningAnswers.key(userId, streamId);
    const run = new RunningAnswer(userId, chatId);
    this.runs.set(key, run);
    const early = this.early.get(key);
    if (early && early.chatId === chatId) {
      this.early.delete(key);
      run.stop(early.shown);
    }
    return run;
  }

  /** The caller's answer named `streamId` (running, or finished a short while ago). */
  find(userId: string, streamId: string): RunningAnswer | undefined {
    return this.runs.get(RunningAnswers.key(userId, streamId));
  }

  /** The answer saved as `messageId` in this process, running or finished a short while ago. */
  findByMessage(userId: string, messageId: string): RunningAnswer | undefined {
    for (const run of this.runs.values()) if (run.userId === userId && run.messageId === messageId) return run;
    return undefined;
  }

  /** Keeps a stop whose answer has not begun here (its request may still be on its way). */
  stopBeforeBegin(userId: string, streamId: string, chatId: string, shown: string): void {
    this.prune();
    this.early.set(RunningAnswers.key(userId, streamId), { chatId, shown, at: this.now() });
  }
}
