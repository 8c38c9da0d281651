import type { ClusterMessage, ClusterResponse } from 'socket.io-adapter';
import { describe, expect, it } from 'vitest';
import { publishInOrder } from './ordered-publishing';

/** An adapter whose database takes each message only when the test lets it, and may refuse one. */
function database() {
  const started: string[] = [];
  const sent: string[] = [];
  const finish = new Map<string, (ok: boolean) => void>();
  const take = async (name: string) => {
    started.push(name);
    const ok = await new Promise<boolean>((resolve) => finish.set(name, resolve));
    if (!ok) throw new Error(`${name} refused`);
    sent.push(name);
  };
  const adapter = {
    doPublish: (message: ClusterMessage) => take(String((message as { data?: unknown }).data)).then(() => 'offset'),
    doPublishResponse: (uid: string, _response: ClusterResponse) => take(`response to ${uid}`),
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { adapter, started, sent, finish: (name: string, ok = true) => finish.get(name)?.(ok), settle };
}

const message = (data: string) => ({ type: 1, nsp: '/', uid: 'here', data }) as unknown as ClusterMessage;

describe('publishing to the other instances in order', () => {
  it('answers at once, so this instance delivers without waiting, and sends one message after another in the order given', async () => {
    const db = database();
    const errors: unknown[] = [];
    const adapter = publishInOrder(db.adapter, (e) => errors.push(e));
    await expect(adapter.doPublish(message('words'))).resolves.toBe('');
    await expect(adapter.doPublish(message('whole answer'))).resolves.toBe('');
    await expect(adapter.doPublishResponse('there', {} as ClusterResponse)).resolves.toBeUndefined();
    await db.settle();
    // The second waits for the first, even though the database could take it at once.
    expect(db.started).toEqual(['words']);
    db.finish('words');
    await db.settle();
    expect(db.started).toEqual(['words', 'whole answer']);
    db.finish('whole answer');
    await db.settle();
    db.finish('response to there');
    await db.settle();
    expect(db.sent).toEqual(['words', 'whole answer', 'response to there']);
    expect(errors).toEqual([]);
  });

  it('reports a message the database refused and goes on with the next', async () => {
    const db = database();
    const errors: unknown[] = [];
    const adapter = publishInOrder(db.adapter, (e) => errors.push(e));
    void adapter.doPublish(message('first'));
    void adapter.doPublish(message('second'));
    await db.settle();
    db.finish('first', false);
    await db.settle();
    db.finish('second');
    await db.settle();
    expect(db.sent).toEqual(['second']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['first refused']);
  });
});
