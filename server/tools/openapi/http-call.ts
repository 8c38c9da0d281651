import { clipResult, ToolCallError } from '../tool-errors';
import { outboundFetch } from '../../platform/net/outbound';

/** Tool calls ask the outbound guard first, and again at every redirect (offline mode). */
const toolFetch = outboundFetch('tool-server');

/** One outgoing HTTP request of an OpenAPI or `api` tool. */
export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Sends the request and answers the response text; non-2xx answers and network failures become ToolCallErrors. */
export async function sendHttpCall(call: HttpCall): Promise<string> {
  const signals = [AbortSignal.timeout(call.timeoutMs), ...(call.signal ? [call.signal] : [])];
  let response: Response;
  try {
    response = await toolFetch(call.url, {
      method: call.method,
      headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.5', ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers },
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      signal: AbortSignal.any(signals),
      redirect: 'follow',
    });
  } catch (error) {
    if (call.signal?.aborted) throw error;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${call.timeoutMs / 1000} s` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : 'network error';
    throw new ToolCallError(`Could not reach ${new URL(call.url).origin}: ${reason}`);
  }
  const text = await response.text();
  if (!response.ok) throw new ToolCallError(`The API answered HTTP ${response.status}: ${text.slice(0, 500)}`);
  return clipResult(text);
}
