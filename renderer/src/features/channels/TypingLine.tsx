import { formatList } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { useTyping } from './live';

/** "Ann is typing…" under a channel or a thread, for the others typing there. */
export function TypingLine({ place, me }: { place: string; me: string }) {
  const t = useT();
  const names = useTyping(place, me);
  return (
    <div className="typing-line tiny muted" aria-live="polite">
      {names.length > 0 ? t('channels.typing', { count: names.length, names: formatList(names) }) : ''}
    </div>
  );
}
