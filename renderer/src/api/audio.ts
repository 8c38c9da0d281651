import type { AudioConfig, AudioConfigUpdate, AudioEngines, AudioVoices, TranscriptionResponse } from '../../../server/contracts/audio';
import { authHeaders, errorOf, http } from './http';

/** Speech-to-text and read-aloud. */
export const audioApi = {
  engines: () => http.get<AudioEngines>('/api/v1/audio/engines'),
  config: () => http.get<AudioConfig>('/api/v1/audio/config'),
  updateConfig: (patch: AudioConfigUpdate) => http.post<AudioConfig>('/api/v1/audio/config/update', patch),
  voices: () => http.get<AudioVoices>('/api/v1/audio/voices'),
  transcribe: (wav: Blob, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', wav, 'speech.wav');
    return http.post<TranscriptionResponse>('/api/v1/audio/transcriptions', form, { signal });
  },
  /** Speech for one piece of text, as audio bytes. */
  async speech(input: string, signal?: AbortSignal): Promise<Blob> {
    const res = await fetch('/api/v1/audio/speech', { method: 'POST', headers: { ...authHeaders(), 'Content-Type': 'application/json' }, body: JSON.stringify({ input }), signal });
    if (!res.ok) throw await errorOf(res);
    return res.blob();
  },
};
