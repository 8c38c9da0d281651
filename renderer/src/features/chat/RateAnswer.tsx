import { useRef, useState } from 'react';
import { useDismiss } from '../../hooks/use-dismiss';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';

const GOOD = ['chat.reasonAccurate', 'chat.reasonHelpful'] as const;
const BAD = ['chat.reasonWrong', 'chat.reasonUnhelpful', 'chat.reasonIncomplete'] as const;

/** The reason saved with a rating: the chosen chips, then the comment. */
export function reasonOf(chips: string[], comment: string): string | undefined {
  const parts = [...chips, comment.trim()].filter(Boolean);
  return parts.length ? parts.join('; ').slice(0, 1000) : undefined;
}

/**
 * 👍/👎 on an answer. Choosing one opens the reasons (chips and a comment); the rating is saved
 * once, with what was chosen, on Save or when the box is closed by a click outside it (Escape or
 * choosing the same thumb again cancels). Clicking the saved rating takes it back.
 */
export function RateAnswer({ value, onRate }: { value?: { rating: number; reason?: string | null }; onRate: (rating: number, reason?: string) => void }) {
  const t = useT();
  const [asking, setAsking] = useState<number | null>(null);
  const [chips, setChips] = useState<string[]>([]);
  const [comment, setComment] = useState('');
  const box = useRef<HTMLDivElement>(null);

  const save = () => {
    if (asking !== null) onRate(asking, reasonOf(chips, comment));
    setAsking(null);
  };
  useDismiss(box, asking !== null, (reason) => (reason === 'outside' ? save() : setAsking(null)));

  const rate = (rating: number) => {
    if (asking === rating) return setAsking(null);
    if (asking === null && value?.rating === rating) return onRate(0);
    setChips([]);
    setComment('');
    setAsking(rating);
  };
  const shown = asking ?? value?.rating;

  return (
    <span className="rate" ref={box}>
      <button type="button" className={`icon-btn small${shown === 1 ? ' active' : ''}`} onClick={() => rate(1)} aria-label={t('chat.goodAnswer')} title={t('chat.goodAnswer')} aria-pressed={shown === 1}>
        <Icon name="thumbsUp" size={15} />
      </button>
      <button type="button" className={`icon-btn small${shown === -1 ? ' active' : ''}`} onClick={() => rate(-1)} aria-label={t('chat.badAnswer')} title={t('chat.badAnswer')} aria-pressed={shown === -1}>
        <Icon name="thumbsDown" size={15} />
      </button>
      {asking !== null && (
        <div className="menu rate-menu" role="dialog" aria-label={t('chat.rateWhy')}>
          <div className="small" style={{ fontWeight: 600 }}>{t('chat.rateWhy')}</div>
          <div className="rate-reasons">
            {(asking === 1 ? GOOD : BAD).map((k) => {
              const chip = t(k);
              const on = chips.includes(chip);
              return (
                <button key={k} type="button" className="chip" aria-pressed={on} onClick={() => setChips((list) => (on ? list.filter((c) => c !== chip) : [...list, chip]))}>
                  {chip}
                </button>
              );
            })}
          </div>
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <input className="input" value={comment} onChange={(e) => setComment(e.target.value)} placeholder={t('chat.rateReason')} aria-label={t('chat.rateReason')} />
            <button type="submit" className="btn small primary">
              {t('common.save')}
            </button>
          </form>
        </div>
      )}
    </span>
  );
}
