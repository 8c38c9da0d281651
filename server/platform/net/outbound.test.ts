import { afterEach, describe, expect, it } from 'vitest';
import { assertOutboundAllowed, isLoopbackAddress, observeOutbound, OutboundRefused, outboundFetch, registerOutboundPolicy } from './outbound';

const undo: Array<() => void> = [];
afterEach(() => {
  for (const fn of undo.splice(0)) fn();
});

function offline(allowedNetworks: string[] = []): void {
  undo.push(registerOutboundPolicy({ offline: () => true, reason: () => 'PARLEY_OFFLINE=1', allowedNetworks }));
}

async function refusal(url: string): Promise<OutboundRefused | undefined> {
  try {
    await assertOutboundAllowed('provider', url);
    return undefined;
  } catch (error) {
    if (error instanceof OutboundRefused) return error;
    throw error;
  }
}

describe('the outbound guard', () => {
  it('lets everything through while online', async () => {
    undo.push(registerOutboundPolicy({ offline: () => false, reason: () => '', allowedNetworks: [] }));
    expect(await refusal('https://api.openai.com/v1')).toBeUndefined();
  });

  it('offline, refuses every host outside this computer with 403 OFFLINE naming host, purpose and switch', async () => {
    offline();
    for (const url of ['https://api.openai.com/v1', 'http://192.168.1.20:11434', 'http://10.0.0.1/', 'http://[2001:db8::1]/', 'http://ollama.office.lan:11434', 'http://0.0.0.0:11434']) {
      const refused = await refusal(url);
      expect(refused, url).toBeInstanceOf(OutboundRefused);
      expect(refused!.status).toBe(403);
      expect(refused!.code).toBe('OFFLINE');
    }
    expect((await refusal('https://huggingface.co/x.gguf'))!.message).toBe('Parley is offline (PARLEY_OFFLINE=1): it makes no connection to huggingface.co (provider); only this computer is reached while offline.');
  });

  it('offline, still reaches this computer: loopback addresses and localhost names', async () => {
    offline();
    for (const url of ['http://127.0.0.1:11434', 'http://127.8.9.10/', 'http://[::1]:8080/', 'http://localhost:11434', 'http://LOCALHOST.:1/', 'http://ollama.localhost/']) {
      expect(await refusal(url), url).toBeUndefined();
    }
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('0:0:0:0:0:0:0:1')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
  });

  it('offline, reaches the networks PARLEY_OFFLINE_ALLOWED_NETWORKS lists (names resolved only then)', async () => {
    offline(['192.168.1.0/24', 'fd00::/8']);
    expect(await refusal('http://192.168.1.20:11434')).toBeUndefined();
    expect(await refusal('http://[fd00::5]/')).toBeUndefined();
    expect(await refusal('http://192.168.2.20:11434')).toBeInstanceOf(OutboundRefused);
    // A name that resolves to loopback passes; one that does not resolve is refused.
    expect(await refusal('http://localhost.:11434')).toBeUndefined();
    expect(await refusal('http://no-such-host.invalid/')).toBeInstanceOf(OutboundRefused);
  });

  it('is offline when any running service is, and online again once it closed', async () => {
    undo.push(registerOutboundPolicy({ offline: () => false, reason: () => '', allowedNetworks: [] }));
    const close = registerOutboundPolicy({ offline: async () => true, reason: async () => 'the Offline switch in Admin settings → Network', allowedNetworks: [] });
    expect((await refusal('https://example.org/'))!.message).toContain('the Offline switch in Admin settings → Network');
    close();
    expect(await refusal('https://example.org/')).toBeUndefined();
  });

  it('tells observers of every attempt, allowed or not', async () => {
    const seen: string[] = [];
    undo.push(observeOutbound((e) => seen.push(`${e.kind} ${e.url} ${e.allowed}`)));
    offline();
    await refusal('http://127.0.0.1:1/a');
    await refusal('https://example.org/b');
    expect(seen).toEqual(['provider http://127.0.0.1:1/a true', 'provider https://example.org/b false']);
  });
});

describe('the guarded fetch', () => {
  /** A fetch that answers from a table of URL → response, recording what it was asked. */
  function fakeFetch(routes: Record<string, () => Response>) {
    const calls: Array<{ url: string; method: string; authorization: string | null }> = [];
    const impl = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, method: init?.method ?? 'GET', authorization: new Headers(init?.headers).get('authorization') });
      const route = routes[url];
      if (!route) throw new TypeError(`fetch failed: no route ${url}`);
      return route();
    }) as typeof fetch;
    return { impl, calls };
  }
  const redirect = (to: string, status = 302) => () => new Response(null, { status, headers: { location: to } });

  it('refuses before connecting, and offline asks again at every redirect', async () => {
    offline();
    const { impl, calls } = fakeFetch({
      'http://127.0.0.1:9000/models': redirect('https://cdn.example.com/models'),
      'http://127.0.0.1:9000/ok': redirect('http://localhost:9001/final'),
      'http://localhost:9001/final': () => new Response('done'),
    });
    const guarded = outboundFetch('tool-server', impl);
    await expect(guarded('https://api.example.com/')).rejects.toBeInstanceOf(OutboundRefused);
    expect(calls).toEqual([]);
    await expect(guarded('http://127.0.0.1:9000/models')).rejects.toThrow(/cdn\.example\.com/);
    expect(calls.map((c) => c.url)).toEqual(['http://127.0.0.1:9000/models']);
    const res = await guarded('http://127.0.0.1:9000/ok', { method: 'POST', body: 'x', headers: { authorization: 'Bearer secret' } });
    expect(await res.text()).toBe('done');
    // 302 after a POST continues as a GET; the credentials stay with their origin.
    expect(calls.slice(1)).toEqual([
      { url: 'http://127.0.0.1:9000/ok', method: 'POST', authorization: 'Bearer secret' },
      { url: 'http://localhost:9001/final', method: 'GET', authorization: null },
    ]);
  });
});
