import { useRef, useState } from 'react';
import { useDismiss } from '../../hooks/use-dismiss';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';

const REASONS = ['chat.reasonAccurate', 'chat.reasonHelpful', 'chat.reasonWrong', 'chat.reasonUnhelpful', 'chat.reasonIncomplete'] as const;

/** 👍/👎 on an answer; after a click, an optional reason (chips or a line of text). Clicking the chosen one again takes it back. */
export function RateAnswer({ value, onRate }: { value?: { rating: number; reason?: string | null }; onRate: (rating: number, reason?: string) => void }) {
  const t = useT();
  const [asking, setAsking] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const box = useRef<HTMLDivElement>(null);
  useDismiss(box, asking !== null, () => setAsking(null));

  const rate = (rating: number) => {
    if (value?.rating === rating) {
      onRate(0);
      return;
    }
    onRate(rating);
    setReason('');
    setAsking(rating);
  };
  const send = (text: string) => {
    if (asking !== null && text.trim()) onRate(asking, text.trim());
    setAsking(null);
  };

  return (
    <span className="rate" ref={box}>
      <button type="button" className={`icon-btn small${value?.rating === 1 ? ' active' : ''}`} onClick={() => rate(1)} aria-label={t('chat.goodAnswer')} title={t('chat.goodAnswer')} aria-pressed={value?.rating === 1}>
        <Icon name="thumbsUp" size={15} />
      </button>
      <button type="button" className={`icon-btn small${value?.rating === -1 ? ' active' : ''}`} onClick={() => rate(-1)} aria-label={t('chat.badAnswer')} title={t('chat.badAnswer')} aria-pressed={value?.rating === -1}>
        <Icon name="thumbsDown" size={15} />
      </button>
      {asking !== null && (
        <div className="menu rate-menu" role="dialog" aria-label={t('chat.rateWhy')}>
          <div className="small" style={{ fontWeight: 600 }}>{t('chat.rateWhy')}</div>
          <div className="rate-reasons">
            {REASONS.filter((k) => (asking === 1 ? k === 'chat.reasonAccurate' || k === 'chat.reasonHelpful' : k !== 'chat.reasonAccurate' && k !== 'chat.reasonHelpful')).map((k) => (
              <button key={k} type="button" className="chip" onClick={() => send(t(k))}>
                {t(k)}
              </button>
            ))}
          </div>
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              send(reason);
            }}
          >
            <input className="input" value={reason} onChange={(e) => setReason(e.target.value)} placeholder={t('chat.rateReason')} aria-label={t('chat.rateReason')} />
            <button type="submit" className="btn small primary">
              {t('common.save')}
            </button>
          </form>
        </div>
      )}
    </span>
  );
}
