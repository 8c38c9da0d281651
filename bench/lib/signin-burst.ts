/**
 * Chat time to first token while many people sign in at once, against the same chats with no
 * sign-ins: a few users stream completions saved into their chats back to back while bursts of
 * simultaneous sign-ins (every account at once, again as soon as the burst is answered) run.
 * All accounts sign in from one address, so past the per-address limit of waiting sign-ins the
 * service refuses at once (429 with Retry-After): such answers are counted as refused, not errors.
 */
import { percentileOf, type LoadAccount } from './load-users';

/** Time-to-first-token figures of one phase. */
export interface TtftPhase {
  samples: number[];
  errors: string[];
  /** Sign-ins answered during the phase. */
  signins: number;
  /** Sign-ins refused at once with 429 (more waiting from this address than the service queues). */
  refused: number;
}

/** Milliseconds from sending a streamed completion to its first text, then reads it to the end. */
async function firstTokenMs(baseUrl: string, token: string, chatId: string, question: string, model: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ model, stream: true, chat_id: chatId, messages: [{ role: 'user', content: question }] }),
  });
  if (!res.ok || !res.body) throw new Error(`stream: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  const decoder = new TextDecoder();
  let seen = '';
  let first = Number.NaN;
  for await (const part of res.body) {
    seen += decoder.decode(part as Uint8Array, { stream: true });
    if (Number.isNaN(first) && /"content":"[^"]/.test(seen)) first = performance.now() - started;
  }
  if (!seen.includes('data: [DONE]') || seen.includes('"error"')) throw new Error(`stream broke: ${seen.slice(-200)}`);
  if (Number.isNaN(first)) throw new Error('stream without text');
  return first;
}

async function signIn(baseUrl: string, account: LoadAccount): Promise<string | 'refused'> {
  const res = await fetch(`${baseUrl}/api/v1/auths/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
  const text = await res.text();
  if (res.status === 429 && res.headers.get('retry-after')) return 'refused';
  if (!res.ok) throw new Error(`signin: HTTP ${res.status} ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { token: string }).token;
}

/**
 * Runs `chatters` users streaming back to back for `seconds`; with `burst` accounts, those sign
 * in all at once, over and over, for the same time.
 */
export async function ttftPhase(baseUrl: string, chatters: Array<{ token: string; chatId: string }>, options: { seconds: number; model: string; burst?: LoadAccount[] }): Promise<TtftPhase> {
  const phase: TtftPhase = { samples: [], errors: [], signins: 0, refused: 0 };
  const deadline = performance.now() + options.seconds * 1000;
  const chatting = chatters.map(async ({ token, chatId }, index) => {
    for (let round = 0; performance.now() < deadline; round += 1) {
      try {
        phase.samples.push(await firstTokenMs(baseUrl, token, chatId, `Question ${round} from chatter ${index}`, options.model));
      } catch (error) {
        phase.errors.push((error as Error).message);
      }
    }
  });
  const signingIn = (async () => {
    while (options.burst && performance.now() < deadline) {
      const results = await Promise.allSettled(options.burst.map((a) => signIn(baseUrl, a)));
      for (const r of results) {
        if (r.status === 'fulfilled' && r.value === 'refused') phase.refused += 1;
        else if (r.status === 'fulfilled') phase.signins += 1;
        else phase.errors.push((r.reason as Error).message);
      }
    }
  })();
  await Promise.all([...chatting, signingIn]);
  return phase;
}

/** A phase with nothing measured yet. */
export function emptyPhase(): TtftPhase {
  return { samples: [], errors: [], signins: 0, refused: 0 };
}

/** Adds `more` into `into`. */
export function addPhase(into: TtftPhase, more: TtftPhase): void {
  into.samples.push(...more.samples);
  into.errors.push(...more.errors);
  into.signins += more.signins;
  into.refused += more.refused;
}

/** p50 and p99 of a phase's samples. */
export function describeTtft(phase: TtftPhase): { p50: number; p99: number } {
  return { p50: percentileOf(phase.samples, 50), p99: percentileOf(phase.samples, 99) };
}
