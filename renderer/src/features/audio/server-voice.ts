import { audioApi } from '../../api/audio';
import { splitForSpeech } from './sentences';

/**
 * Plays a text with the service's voice: the first sentence is requested at once and played as
 * soon as it arrives, while the next one is already being synthesized. `stop` ends it all.
 */
export function speakWithServer(text: string, splitOn: string, onEnd: () => void): { stop: () => void } {
  const controller = new AbortController();
  const pieces = splitForSpeech(text, splitOn);
  let audio: HTMLAudioElement | undefined;
  let stopped = false;
  const fetchPiece = (i: number) => (i < pieces.length ? audioApi.speech(pieces[i]!, controller.signal) : undefined);
  const play = (blob: Blob) =>
    new Promise<void>((resolve, reject) => {
      const url = URL.createObjectURL(blob);
      audio = new Audio(url);
      audio.onended = () => (URL.revokeObjectURL(url), resolve());
      // eslint-disable-next-line no-restricted-syntax -- ends the playback loop, never shown to people
      audio.onerror = () => (URL.revokeObjectURL(url), reject(new Error('playback failed')));
      void audio.play().catch(reject);
    });
  void (async () => {
    let next = fetchPiece(0);
    for (let i = 0; next && !stopped; i++) {
      const blob = await next;
      next = fetchPiece(i + 1);
      next?.catch(() => undefined);
      if (stopped) break;
      await play(blob);
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      if (!stopped) onEnd();
    });
  return {
    stop() {
      stopped = true;
      controller.abort();
      audio?.pause();
      onEnd();
    },
  };
}
