/**
 * Simulated LAN users for the load benchmark and its bounded test: all sign in at once, then each
 * loops (list chats, stream a completion saved into its chat, upload a small file every few
 * rounds) until the time is up. Every non-2xx answer or broken stream counts as an error, except
 * a sign-in refused with 429 and Retry-After (more than `MAX_WAITING_PER_ADDRESS` sign-ins waiting
 * from one address, which all the load users share): it is retried after the time the service
 * names, as a script or a person told "try again in a few seconds" would, and counted apart.
 */

/** One user's account. */
export interface LoadAccount {
  email: string;
  password: string;
}

/** What a load run measured. */
export interface LoadResult {
  requests: number;
  errors: string[];
  /** Sign-ins the service asked to retry later (429 with Retry-After), then retried. */
  signinRetries: number;
  /** Latencies per operation, milliseconds. */
  latencies: Record<'signin' | 'list' | 'stream' | 'upload', number[]>;
}

/** The `p`th percentile (0..100) of `values`. */
export function percentileOf(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function timed<T>(into: number[], run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    into.push(performance.now() - started);
  }
}

async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Reads an SSE completion to its end; throws on an error frame or a stream without [DONE]. */
async function readStream(res: Response): Promise<void> {
  if (!res.ok || !res.body) throw new Error(`stream: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  const text = await res.text();
  if (text.includes('"error"')) throw new Error(`stream error frame: ${text.slice(0, 200)}`);
  if (!text.includes('data: [DONE]')) throw new Error('stream ended without [DONE]');
}

/** Creates `count` accounts through the admin add endpoint. */
export async function createAccounts(baseUrl: string, adminToken: string, count: number): Promise<LoadAccount[]> {
  const accounts = Array.from({ length: count }, (_, i) => ({ email: `load${i}-${Date.now()}@example.com`, password: `load-password-${i}` }));
  for (let i = 0; i < accounts.length; i += 10) {
    await Promise.all(
      accounts.slice(i, i + 10).map(async (a, j) =>
        expectOk(
          await fetch(`${baseUrl}/api/v1/auths/add`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
            body: JSON.stringify({ name: `Load ${i + j}`, email: a.email, password: a.password, role: 'user' }),
          }),
          'add user',
        ),
      ),
    );
  }
  return accounts;
}

/** Runs every account as a concurrent user against `baseUrl` for `seconds`. */
export async function runLoad(baseUrl: string, accounts: LoadAccount[], options: { seconds: number; model: string }): Promise<LoadResult> {
  const result: LoadResult = { requests: 0, errors: [], signinRetries: 0, latencies: { signin: [], list: [], stream: [], upload: [] } };
  const json = { 'content-type': 'application/json' };
  let deadline = Infinity;

  async function signin(account: LoadAccount): Promise<string> {
    const body = (await timed(result.latencies.signin, async () => {
      for (let attempt = 1; ; attempt += 1) {
        const res = await fetch(`${baseUrl}/api/v1/auths/signin`, { method: 'POST', headers: json, body: JSON.stringify(account) });
        const retryAfter = Number(res.headers.get('retry-after'));
        if (res.status !== 429 || !(retryAfter > 0) || attempt === 5) return expectOk(res, 'signin');
        await res.text();
        result.signinRetries += 1;
        await new Promise((r) => setTimeout(r, retryAfter * 1000));
      }
    })) as { token: string };
    result.requests += 1;
    return body.token;
  }

  async function user(token: string, index: number): Promise<void> {
    try {
      const auth = { authorization: `Bearer ${token}` };
      const chat = (await expectOk(await fetch(`${baseUrl}/api/v1/chats/new`, { method: 'POST', headers: { ...json, ...auth }, body: JSON.stringify({ title: `load ${index}` }) }), 'new chat')) as { id: string };
      result.requests += 1;
      let round = 0;
      while (performance.now() < deadline) {
        round += 1;
        await timed(result.latencies.list, async () => expectOk(await fetch(`${baseUrl}/api/v1/chats/?page=1`, { headers: auth }), 'list chats'));
        await timed(result.latencies.stream, async () =>
          readStream(
            await fetch(`${baseUrl}/api/chat/completions`, {
              method: 'POST',
              headers: { ...json, ...auth },
              body: JSON.stringify({ model: options.model, stream: true, chat_id: chat.id, messages: [{ role: 'user', content: `Question ${round} from user ${index}` }] }),
            }),
          ),
        );
        result.requests += 2;
        if (round % 3 === 0) {
          const form = new FormData();
          form.append('files', new Blob([`notes ${index} ${round}\n`.repeat(50)], { type: 'text/plain' }), `notes-${round}.txt`);
          await timed(result.latencies.upload, async () => expectOk(await fetch(`${baseUrl}/api/v1/chats/attachment/upload`, { method: 'POST', headers: auth, body: form }), 'upload'));
          result.requests += 1;
        }
      }
    } catch (error) {
      result.errors.push(`user ${index}: ${(error as Error).message}`);
    }
  }

  // Everyone signs in at once (password hashing is the slow part), then the clock starts.
  const tokens = await Promise.all(accounts.map((a) => signin(a)));
  deadline = performance.now() + options.seconds * 1000;
  await Promise.all(tokens.map((t, i) => user(t, i)));
  return result;
}
