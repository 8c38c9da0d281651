import { describe, expect, it } from 'vitest';
import { createFirstTokenGate } from './first-token-gate';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('first-token gate', () => {
  it('holds background jobs while a request waits for its first token, then runs them', async () => {
    const gate = createFirstTokenGate({ concurrency: 2, maxWaitMs: 10_000 });
    const leave = gate.awaitingFirstToken();
    let ran = false;
    const job = gate.background(async () => {
      ran = true;
    });
    await tick();
    expect(ran).toBe(false);
    leave();
    leave();
    await job;
    expect(ran).toBe(true);
    expect(gate.waiting).toBe(0);
  });

  it('runs jobs anyway after the longest wait, so constant traffic cannot starve them', async () => {
    const gate = createFirstTokenGate({ concurrency: 1, maxWaitMs: 20 });
    gate.awaitingFirstToken();
    const started = performance.now();
    await gate.background(async () => undefined);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('runs at most `concurrency` jobs at a time', async () => {
    const gate = createFirstTokenGate({ concurrency: 2, maxWaitMs: 10 });
    let now = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        gate.background(async () => {
          now += 1;
          most = Math.max(most, now);
          await tick();
          now -= 1;
        }),
      ),
    );
    expect(most).toBe(2);
  });
});
