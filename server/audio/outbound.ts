import { HttpError } from '../platform/http/errors';
import { offlineRefusal, outboundFetch } from '../platform/net/outbound';

/** Speech providers' requests, each through the offline guard (kind `audio`; redirects checked too). */
const guardedFetch = outboundFetch('audio');

/**
 * The one place the audio domain reaches outside the machine (speech providers). Each call is
 * behind its own switch (the engine set to `openai`) and the service-wide offline guard.
 */
export async function audioFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await guardedFetch(url, init);
  } catch (error) {
    if (init.signal?.aborted || offlineRefusal(error)) throw error;
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new HttpError(502, 'AUDIO_PROVIDER_UNREACHABLE', `The speech provider at ${new URL(url).host} could not be reached (${cause})`);
  }
}

/** A provider's refusal as a 4xx/5xx the caller can read: its own message where it gave one. */
export async function providerError(response: Response, what: string): Promise<HttpError> {
  const text = await response.text().catch(() => '');
  let message = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string; detail?: string };
    message = (typeof body.error === 'string' ? body.error : body.error?.message) ?? body.detail ?? message;
  } catch {
    // not JSON: the text itself
  }
  const status = response.status === 401 || response.status === 403 ? 502 : response.status >= 500 ? 502 : 400;
  return new HttpError(status, 'AUDIO_PROVIDER_ERROR', `The ${what} provider answered ${response.status}: ${message || response.statusText}`);
}
