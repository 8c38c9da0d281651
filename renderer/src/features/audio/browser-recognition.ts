import { desktop } from '../../lib/desktop';

/** The part of the Web Speech API's recognition this uses (not in TypeScript's DOM types). */
interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { resultIndex: number; results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionClass = new () => SpeechRecognitionLike;

function recognitionClass(): RecognitionClass | undefined {
  if (typeof window === 'undefined') return undefined;
  const w = window as unknown as { SpeechRecognition?: RecognitionClass; webkitSpeechRecognition?: RecognitionClass };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/**
 * Whether the browser's own recognition can be offered: the browser has it, and this is not the
 * desktop window (Electron exposes the API but its cloud service answers nothing there).
 */
export function browserRecognitionAvailable(): boolean {
  return recognitionClass() !== undefined && desktop() === undefined;
}

/** A dictation through the browser's recognition; `stop()` answers the words heard. */
export interface Dictation {
  level(): number;
  stop(): Promise<string>;
  cancel(): void;
}

/**
 * Starts the browser's recognition in the page's language. The browser decides where the audio
 * goes (Chrome sends it to Google): which is why it is an opt-in in the account settings.
 */
export function startBrowserDictation(onProblem: (problem: string) => void): Dictation {
  const Recognition = recognitionClass()!;
  const recognition = new Recognition();
  recognition.lang = document.documentElement.lang || 'en';
  recognition.continuous = true;
  recognition.interimResults = false;
  const heard: string[] = [];
  let ended: (() => void) | undefined;
  const done = new Promise<void>((resolve) => (ended = resolve));
  recognition.onresult = (event) => {
    for (let i = event.resultIndex; i < event.results.length; i++) {
      const result = event.results[i]!;
      if (result.isFinal) heard.push(result[0]!.transcript.trim());
    }
  };
  recognition.onerror = (event) => onProblem(event.error === 'not-allowed' || event.error === 'service-not-allowed' ? 'denied' : event.error === 'audio-capture' ? 'no-device' : 'browser-failed');
  recognition.onend = () => ended?.();
  recognition.start();
  return {
    level: () => 0.5,
    async stop() {
      recognition.stop();
      await done;
      return heard.filter(Boolean).join(' ');
    },
    cancel: () => recognition.abort(),
  };
}
