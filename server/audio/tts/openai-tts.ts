import type { SpeechRequest } from '../../contracts/audio';
import { audioFetch, providerError } from '../outbound';

/** Speech from an OpenAI-compatible `/audio/speech`: the provider's response, to stream on. */
export async function speakWithProvider(options: { baseUrl: string; key: string; model: string; voice: string; request: SpeechRequest; signal?: AbortSignal }): Promise<Response> {
  const { request } = options;
  const response = await audioFetch(`${options.baseUrl}/audio/speech`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}) },
    body: JSON.stringify({
      model: options.model,
      input: request.input,
      voice: options.voice,
      response_format: request.response_format ?? 'mp3',
      ...(request.speed !== undefined ? { speed: request.speed } : {}),
      ...(request.instructions ? { instructions: request.instructions } : {}),
    }),
    signal: options.signal,
  });
  if (!response.ok || !response.body) throw await providerError(response, 'read-aloud');
  return response;
}

/** The voices OpenAI's speech endpoint knows (providers that list theirs answer `/audio/voices`). */
export const OPENAI_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'];
