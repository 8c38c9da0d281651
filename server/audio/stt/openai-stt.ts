import { audioFetch, providerError } from '../outbound';

/** A recording as it arrived. */
export interface Recording {
  bytes: Uint8Array;
  filename: string;
  mime: string;
}

/**
 * Sends a recording to an OpenAI-compatible `/audio/transcriptions` (OpenAI, Groq, a Speaches
 * or LocalAI server) untouched, in whatever format it came: the provider decodes it.
 */
export async function transcribeWithProvider(options: { baseUrl: string; key: string; model: string; recording: Recording; language?: string; prompt?: string; signal?: AbortSignal }): Promise<{ text: string; language?: string; duration?: number }> {
  const form = new FormData();
  form.append('file', new Blob([options.recording.bytes], { type: options.recording.mime }), options.recording.filename);
  form.append('model', options.model || 'whisper-1');
  form.append('response_format', 'json');
  if (options.language) form.append('language', options.language);
  if (options.prompt) form.append('prompt', options.prompt);
  const response = await audioFetch(`${options.baseUrl}/audio/transcriptions`, {
    method: 'POST',
    headers: options.key ? { Authorization: `Bearer ${options.key}` } : {},
    body: form,
    signal: options.signal,
  });
  if (!response.ok) throw await providerError(response, 'speech-to-text');
  const body = (await response.json().catch(() => ({}))) as { text?: unknown; language?: unknown; duration?: unknown };
  if (typeof body.text !== 'string') throw await providerError(new Response('the answer has no text', { status: 502 }), 'speech-to-text');
  return { text: body.text.trim(), ...(typeof body.language === 'string' ? { language: body.language } : {}), ...(typeof body.duration === 'number' ? { duration: body.duration } : {}) };
}
