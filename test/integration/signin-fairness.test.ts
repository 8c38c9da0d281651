import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/** A sign-in sent from another loopback address (127.0.0.2: another person on the LAN). */
function signinFrom(localAddress: string, url: string, email: string, password: string): Promise<number> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/auths/signin`, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/*
 * Password hashing is the slow part of a sign-in (bcrypt, one at a time on a small machine). A
 * flood of correct sign-ins from one place must not make everyone else wait behind it: hashing
 * queues fairly by address then account, an address may only have a few sign-ins waiting, and
 * correct sign-ins count against a budget too.
 */
describe('sign-in fairness under a flood of correct sign-ins', () => {
  let server: TestServer;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('another person’s sign-in is answered before the flood is through, and the flood is refused beyond a few waiting', async () => {
    const flooder = await buildUser(server, admin);
    const colleague = await buildUser(server, admin);
    const finished: Array<{ who: 'flood' | 'colleague'; status: number }> = [];
    const flood = Array.from({ length: 100 }, () =>
      server.anon.post('/api/v1/auths/signin', { email: flooder.email, password: flooder.password }).then((res) => finished.push({ who: 'flood', status: res.status })),
    );
    // Until the flood has reached the service: refusals come back, or (with no cap) 1.5 s have passed.
    const started = Date.now();
    while (finished.filter((f) => f.status === 429).length < 50 && Date.now() - started < 1_500) await new Promise((resolve) => setTimeout(resolve, 20));
    const sentAt = finished.length;
    const status = await signinFrom('127.0.0.2', server.url, colleague.email, colleague.password);
    finished.push({ who: 'colleague', status });
    await Promise.all(flood);
    expect(status).toBe(200);
    // Sign-ins of the flood answered while the colleague waited: the hash in progress and those already
    // hashed (finishing their session) at most; with one queue for everyone, every one still waiting (up to the cap of 32, or ~90 uncapped).
    const answeredWhileWaiting = finished.slice(sentAt, finished.findIndex((f) => f.who === 'colleague')).filter((f) => f.status === 200).length;
    expect(answeredWhileWaiting).toBeLessThanOrEqual(4);
    const statuses = finished.filter((f) => f.who === 'flood').map((f) => f.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(50);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('correct sign-ins of one account are limited too: once the budget is spent, even the right password gets 429', async () => {
    const user = await buildUser(server, admin);
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++) statuses.push((await server.anon.post('/api/v1/auths/signin', { email: user.email, password: user.password })).status);
    // buildUser signed in once: 49 more are allowed, then refused.
    expect(statuses.slice(0, 49).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(49)).toEqual([429, 429, 429]);
    // Someone else, from another address, is not affected.
    const other = await buildUser(server, admin);
    expect(await signinFrom('127.0.0.2', server.url, other.email, other.password)).toBe(200);
  });
});
