import { useEffect, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';

/** Reads an answer aloud with the system's speech voices (the browser's speech synthesis); a second click stops. */
export function ReadAloud({ text }: { text: () => string }) {
  const t = useT();
  const [speaking, setSpeaking] = useState(false);
  const synth = typeof window !== 'undefined' ? window.speechSynthesis : undefined;
  useEffect(() => () => void (speaking && synth?.cancel()), [speaking, synth]);
  if (!synth) return null;
  const toggle = () => {
    if (speaking) {
      synth.cancel();
      setSpeaking(false);
      return;
    }
    synth.cancel();
    const utterance = new SpeechSynthesisUtterance(text());
    utterance.lang = document.documentElement.lang || 'en';
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    synth.speak(utterance);
    setSpeaking(true);
  };
  const label = speaking ? t('chat.stopReading') : t('chat.readAloud');
  return (
    <button type="button" className={`icon-btn small${speaking ? ' active' : ''}`} onClick={toggle} aria-label={label} title={label} aria-pressed={speaking}>
      <Icon name="volume" size={15} />
    </button>
  );
}
