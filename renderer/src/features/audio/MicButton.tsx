import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { audioApi } from '../../api/audio';
import { Icon } from '../../components/Icon';
import { useT, type StringKey } from '../../lib/i18n';
import { useSettings } from '../../app/settings';
import type { ComposerFeatureProps } from '../chat/composer/features';
import { browserRecognitionAvailable, startBrowserDictation } from './browser-recognition';
import { voiceChoicesOf } from './voice-settings';
import { MicError, startRecording } from './wav-recorder';

type State = 'idle' | 'starting' | 'listening' | 'transcribing';

/** Presses longer than this are "hold to talk": releasing stops. */
const HOLD_MS = 400;

const PROBLEMS: Record<string, StringKey> = {
  insecure: 'chat.micInsecure',
  denied: 'chat.micDenied',
  'no-device': 'chat.micNoDevice',
  unsupported: 'chat.micUnsupported',
  'no-engine': 'chat.micNoEngine',
  'no-model': 'chat.micNoModel',
  'browser-failed': 'chat.micBrowserFailed',
};

/** A running dictation: its loudness for the meter, and stop → the words. */
interface Capture {
  level(): number;
  stop(): Promise<string>;
  cancel(): void;
}

/**
 * The composer's microphone: click to start and click again to stop, or hold and release;
 * Ctrl/⌘+Shift+M does the same from the keyboard. While listening a meter shows the level; the
 * text lands in the message box for the person to edit. Says why when it cannot work.
 */
export function MicButton({ disabled, insertText, insertAndSend, focusInput }: ComposerFeatureProps) {
  const t = useT();
  const { settings } = useSettings();
  const choices = voiceChoicesOf(settings);
  const inBrowser = choices.browserRecognition && browserRecognitionAvailable();
  const engines = useQuery({ queryKey: ['audio-engines'], queryFn: audioApi.engines, staleTime: 30_000 });
  const [state, setState] = useState<State>('idle');
  const [problem, setProblem] = useState<string | undefined>();
  const [level, setLevel] = useState(0);
  const recording = useRef<Capture | undefined>(undefined);
  const pressedAt = useRef(0);
  const startedByPress = useRef(false);

  const stt = engines.data?.stt;
  const unavailable = inBrowser ? undefined : stt && !stt.ready ? (stt.reason === 'no-model' ? 'no-model' : 'no-engine') : undefined;

  const start = useCallback(async () => {
    if (unavailable) {
      setProblem(unavailable);
      return;
    }
    setProblem(undefined);
    setState('starting');
    try {
      if (inBrowser) {
        recording.current = startBrowserDictation((found) => setProblem(found));
      } else {
        const wav = await startRecording();
        recording.current = { level: wav.level, cancel: wav.cancel, stop: async () => (await audioApi.transcribe(await wav.stop())).text };
      }
      setState('listening');
    } catch (error) {
      setProblem(error instanceof MicError ? error.problem : 'unsupported');
      setState('idle');
    }
  }, [unavailable, inBrowser]);

  const stop = useCallback(async () => {
    const current = recording.current;
    recording.current = undefined;
    if (!current) return;
    setState('transcribing');
    try {
      const text = await current.stop();
      if (text && choices.autoSend) insertAndSend(text);
      else if (text) insertText(text);
      focusInput();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setState('idle');
      setLevel(0);
    }
  }, [insertText, insertAndSend, focusInput, choices.autoSend]);

  const toggle = useCallback(() => {
    if (state === 'idle') void start();
    else if (state === 'listening') void stop();
  }, [state, start, stop]);

  useEffect(() => {
    if (state !== 'listening') return;
    let frame = requestAnimationFrame(function tick() {
      setLevel(recording.current?.level() ?? 0);
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [state]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'm') {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  useEffect(() => () => recording.current?.cancel(), []);

  const label = state === 'listening' ? t('chat.micStop') : state === 'transcribing' ? t('chat.micTranscribing') : t('chat.micStart');
  const message = problem ? (PROBLEMS[problem] ? t(PROBLEMS[problem]) : problem) : undefined;
  return (
    <span className="mic">
      <button
        type="button"
        className={`icon-btn${state === 'listening' ? ' active' : ''}`}
        aria-label={label}
        title={t('chat.micShortcut', { label })}
        aria-pressed={state === 'listening'}
        disabled={disabled || state === 'transcribing' || state === 'starting'}
        data-testid="mic-button"
        onPointerDown={() => {
          pressedAt.current = Date.now();
          startedByPress.current = state === 'idle';
          if (state === 'idle') void start();
        }}
        onPointerUp={() => {
          // A click starts listening and the next click stops it; a press held longer stops on release.
          const held = Date.now() - pressedAt.current >= HOLD_MS;
          if (startedByPress.current ? held : state === 'listening') void stop();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            toggle();
          }
        }}
      >
        <Icon name={state === 'listening' ? 'stop' : 'mic'} />
      </button>
      {state === 'listening' && (
        <span className="mic-level" role="meter" aria-label={t('chat.micLevel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
          <span style={{ inlineSize: `${Math.round(level * 100)}%` }} />
        </span>
      )}
      {message && (
        <span className="mic-problem tiny" role="alert" data-testid="mic-problem">
          {message}
        </span>
      )}
    </span>
  );
}
