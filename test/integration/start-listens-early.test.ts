import { rmSync } from 'node:fs';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, type MigrationList } from '../../server/platform/db/migrations';
import { signupAdmin } from '../helpers/builders';
import { startTestServer, tempDataDir } from '../helpers/server';

/** A migration list whose last migration waits until `release` is called (an upgrade that takes a while). */
function slowUpgrade(): { migrations: MigrationList; release(fail?: Error): void; started: Promise<void> } {
  let release: (fail?: Error) => void = () => {};
  let began: () => void = () => {};
  const started = new Promise<void>((resolve) => (began = resolve));
  const done = new Promise<Error | undefined>((resolve) => (release = resolve));
  const migrations: MigrationList = [
    ...MIGRATIONS,
    [
      '209901010000-takes-a-while',
      {
        up: async () => {
          began();
          const failure = await done;
          if (failure) throw failure;
        },
        down: async () => undefined,
      },
    ],
  ];
  return { migrations, release: (fail) => release(fail), started };
}

describe('the port opens before the database is upgraded', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** Starts on an existing data dir (one made by the migrations before `slow`'s) and returns the URL as soon as the port opens. */
  async function startSlowly(slow: ReturnType<typeof slowUpgrade>, desktopOwner?: string) {
    const dataDir = tempDataDir('parley-early-');
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startTestServer({ dataDir, sqlite: true, keepDataDir: true });
    if (desktopOwner === undefined) await signupAdmin(first);
    await first.close();
    let opened!: (url: string) => void;
    const url = new Promise<string>((resolve) => (opened = resolve));
    const running = startTestServer({ dataDir, sqlite: true, keepDataDir: true, migrations: slow.migrations, desktopOwner, onListening: opened });
    cleanup.push(async () => {
      slow.release();
      await (await running.catch(() => undefined))?.close();
    });
    return { url: await url, running };
  }

  it('answers /health while the migrations run, holds other requests and serves them once the service is ready', async () => {
    const slow = slowUpgrade();
    const { url, running } = await startSlowly(slow);
    await slow.started;

    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: true, starting: true });

    let answered = false;
    const config = fetch(`${url}/api/config`).then(async (res) => {
      answered = true;
      return { status: res.status, body: (await res.json()) as { name?: string } };
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);

    slow.release();
    await running;
    const held = await config;
    expect(held.status).toBe(200);
    expect(held.body.name).toBe('Parley');
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: true });
  });

  it('a live connection asked for during the start reaches socket.io once the service is ready', async () => {
    const slow = slowUpgrade();
    const { url, running } = await startSlowly(slow);
    await slow.started;
    const socket = io(url, { transports: ['polling'], reconnection: false, forceNew: true });
    const refused = new Promise<string>((resolve) => socket.once('connect_error', (error) => resolve(error.message)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    slow.release();
    await running;
    // Answered by the service's socket.io (no credential), not by a 404 of the app.
    expect(await refused).toBe('Not authenticated');
    socket.close();
  });

  it('a desktop owner exists before any held sign-up is served: the racing account is not the admin', async () => {
    const slow = slowUpgrade();
    const { url, running } = await startSlowly(slow, 'Desk Owner');
    await slow.started;
    const signup = fetch(`${url}/api/v1/auths/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Racer', email: 'racer@example.test', password: 'a long enough password' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    slow.release();
    await running;
    const answer = (await (await signup).json()) as { role?: string };
    expect(answer.role).not.toBe('admin');
  });

  it('a start that fails answers the held requests 503 with the reason to look in the log, and closes the port', async () => {
    const slow = slowUpgrade();
    const { url, running } = await startSlowly(slow);
    await slow.started;
    const held = fetch(`${url}/api/config`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    slow.release(new Error('disk full'));
    await expect(running).rejects.toThrow(/disk full/);
    const res = await held;
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/could not start/);
    expect(await fetch(`${url}/health`).then((r) => r.status, () => 'closed')).toBe('closed');
  });
});
