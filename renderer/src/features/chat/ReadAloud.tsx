import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { audioApi } from '../../api/audio';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';
import { speakWithServer } from '../audio/server-voice';

/**
 * Reads an answer aloud: with the service's voice when an admin set one up (offline espeak-ng or
 * a provider; the first sentence plays while the rest is synthesized), else with the system's
 * voices (the browser's speech synthesis). A second click stops.
 */
export function ReadAloud({ text }: { text: () => string }) {
  const t = useT();
  const [speaking, setSpeaking] = useState(false);
  const engines = useQuery({ queryKey: ['audio-engines'], queryFn: audioApi.engines, staleTime: 30_000 });
  const server = useRef<{ stop: () => void } | undefined>(undefined);
  const synth = typeof window !== 'undefined' ? window.speechSynthesis : undefined;
  const tts = engines.data?.tts;
  const useServer = tts?.ready === true;
  /** Whether this button started the system voice (the page-wide synthesis is cancelled only then). */
  const speakingNow = useRef(false);
  speakingNow.current = speaking;
  // Stops only when the message leaves the page: a cleanup on `speaking` would stop what a click just started.
  useEffect(
    () => () => {
      server.current?.stop();
      if (speakingNow.current) synth?.cancel();
    },
    [synth],
  );
  if (!synth && !useServer) return null;
  const toggle = () => {
    if (speaking) {
      server.current?.stop();
      server.current = undefined;
      synth?.cancel();
      setSpeaking(false);
      return;
    }
    setSpeaking(true);
    if (useServer) {
      server.current = speakWithServer(text(), tts.split_on, () => setSpeaking(false));
      return;
    }
    synth!.cancel();
    const utterance = new SpeechSynthesisUtterance(text());
    utterance.lang = document.documentElement.lang || 'en';
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    synth!.speak(utterance);
  };
  const label = speaking ? t('chat.stopReading') : t('chat.readAloud');
  return (
    <button type="button" className={`icon-btn small${speaking ? ' active' : ''}`} onClick={toggle} aria-label={label} title={label} aria-pressed={speaking} data-testid="read-aloud">
      <Icon name="volume" size={15} />
    </button>
  );
}
