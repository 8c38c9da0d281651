import { useState, type KeyboardEvent, type RefObject } from 'react';
import type { PickableModel } from '../../../api/models';
import { Icon } from '../../../components/Icon';
import { listKeyDown } from '../../../hooks/list-keys';
import { useT } from '../../../lib/i18n';

/** The `@word` being typed right before the caret, if any. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  return m ? { start: caret - m[2]!.length - 1, query: m[2]!.toLowerCase() } : null;
}

/**
 * `@model` mentions in the message box: while `@word` is typed, a list of matching models; the
 * chosen one leaves the text and shows as a chip, and answers this message only.
 */
export function useMentions({ models, setText, area }: { models: PickableModel[]; setText: (update: (text: string) => string) => void; area: RefObject<HTMLTextAreaElement | null> }) {
  const t = useT();
  const [mention, setMention] = useState<PickableModel | null>(null);
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const [cursor, setCursor] = useState(0);
  const mentionable = typing ? models.filter((m) => m.name.toLowerCase().includes(typing.query) || m.id.toLowerCase().includes(typing.query)).slice(0, 8) : [];

  const choose = (m: PickableModel) => {
    if (!typing) return;
    const el = area.current;
    const start = typing.start;
    const caret = el?.selectionStart ?? el?.value.length ?? 0;
    setText((text) => (text.slice(0, start) + text.slice(caret)).replace(/^\s+/, ''));
    setMention(m);
    setTyping(null);
    requestAnimationFrame(() => el?.focus());
  };

  /** Call with the box's new value and caret. */
  const onChange = (value: string, caret: number) => {
    const found = models.length ? mentionAt(value, caret) : null;
    setTyping(found);
    if (found?.query !== typing?.query) setCursor(0);
  };

  /** Handles the list's keys; true when the key was used. */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (listKeyDown(e, { items: mentionable, cursor, setCursor, pick: choose, close: () => setTyping(null) })) return true;
    if (e.key === 'Backspace' && mention && (e.currentTarget.selectionStart ?? 0) === 0 && (e.currentTarget.selectionEnd ?? 0) === 0) setMention(null);
    return false;
  };

  const reset = () => {
    setMention(null);
    setTyping(null);
  };

  const ui = (
    <>
      {mention && (
        <div className="mention-chip" data-testid="mention">
          <Icon name="at" size={13} />
          <span className="truncate">{t('chat.mentioned', { model: mention.name })}</span>
          <button type="button" className="chip-x" onClick={() => setMention(null)} aria-label={t('chat.removeMention')}>
            <Icon name="x" size={12} />
          </button>
        </div>
      )}
      {mentionable.length > 0 && (
        <ul className="menu mention-menu" role="listbox" aria-label={t('chat.mentionModels')}>
          {mentionable.map((m, i) => (
            <li
              key={m.id}
              role="option"
              aria-selected={i === cursor}
              className={`model-option${i === cursor ? ' cursor' : ''}`}
              title={m.id}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(m);
              }}
            >
              <Icon name="at" size={14} />
              <span className="truncate">{m.name}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );

  return { mention, onChange, onKeyDown, reset, ui };
}
