/**
 * The client side of `bench/completion.ts`: streamed chat completions read as a person's client
 * reads them (timing the first text), over fetch or node:http with a chosen agent.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';

/** One streamed answer as the client saw it. */
export interface StreamRun {
  ttftMs: number;
  totalMs: number;
  bytes: number;
  pieces: number;
  error?: string;
}

/** Posts a streaming completion and reads it to the end, timing the first text fragment. */
export async function stream(url: string, headers: Record<string, string>, body: unknown): Promise<StreamRun> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok || !res.body) return { ttftMs: NaN, totalMs: NaN, bytes: 0, pieces: 0, error: `HTTP ${res.status}: ${await res.text()}` };
  const decoder = new TextDecoder();
  let buffer = '';
  let ttftMs = NaN;
  let bytes = 0;
  let pieces = 0;
  let done = false;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!frame.startsWith('data: ')) continue;
      const data = frame.slice(6);
      if (data === '[DONE]') {
        done = true;
        continue;
      }
      const parsed = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }>; error?: { message: string } };
      if (parsed.error) return { ttftMs, totalMs: NaN, bytes, pieces, error: parsed.error.message };
      if (parsed.choices?.[0]?.delta?.content) {
        pieces += 1;
        if (Number.isNaN(ttftMs)) ttftMs = performance.now() - started;
      }
    }
  }
  return { ttftMs, totalMs: performance.now() - started, bytes, pieces, ...(done ? {} : { error: 'no [DONE]' }) };
}

/** Like `stream`, over node:http with the given agent (`false`: a new connection per request). */
export function streamHttp(url: string, headers: Record<string, string>, body: unknown, agent: http.Agent | false): Promise<StreamRun> {
  const started = performance.now();
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...headers } }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      let ttftMs = NaN;
      let bytes = 0;
      let pieces = 0;
      let done = false;
      let error: string | undefined = res.statusCode === 200 ? undefined : `HTTP ${res.statusCode}`;
      res.on('data', (text: string) => {
        bytes += Buffer.byteLength(text);
        buffer += text;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!frame.startsWith('data: ')) continue;
          if (frame === 'data: [DONE]') {
            done = true;
            continue;
          }
          if (frame.includes('"error"')) error = frame.slice(0, 200);
          // A frame with text (not the role-only opening frame, whose content is empty).
          else if (/"content":"[^"]/.test(frame)) {
            pieces += 1;
            if (Number.isNaN(ttftMs)) ttftMs = performance.now() - started;
          }
        }
      });
      res.on('end', () => resolve({ ttftMs, totalMs: performance.now() - started, bytes, pieces, ...(error ? { error } : done ? {} : { error: 'no [DONE]' }) }));
      res.on('error', (e) => resolve({ ttftMs, totalMs: NaN, bytes, pieces, error: e.message }));
    });
    req.on('error', (e) => resolve({ ttftMs: NaN, totalMs: NaN, bytes: 0, pieces: 0, error: e.message }));
    req.end(payload);
  });
}

/** CPU time (user + system) of a process in ms, from /proc (Linux). */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Calls a JSON endpoint of the service and gives back its answer; throws on a non-2xx status. */
export async function json(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

