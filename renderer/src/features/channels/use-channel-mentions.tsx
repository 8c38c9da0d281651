import { useState, type KeyboardEvent, type RefObject } from 'react';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';
import { mentionAt } from '../chat/composer/use-mentions';

/** Someone or something `@` can name in a channel. */
export interface MentionOption {
  kind: 'everyone' | 'person' | 'model';
  /** What goes into the text after `@`. */
  insert: string;
  label: string;
  /** The model's id, under its name. */
  detail?: string;
}

/**
 * `@` in a channel's message box: while `@word` is typed, the members, models and (for the
 * channel's managers) `@all` that match; the chosen one is written into the text as `@Name `,
 * which the service reads as the mention (a model named this way answers).
 */
export function useChannelMentions({ options, setText, area }: { options: MentionOption[]; setText: (update: (text: string) => string) => void; area: RefObject<HTMLTextAreaElement | null> }) {
  const t = useT();
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const [cursor, setCursor] = useState(0);
  const matches = typing ? options.filter((o) => o.label.toLowerCase().includes(typing.query) || o.insert.toLowerCase().includes(typing.query)).slice(0, 8) : [];

  const choose = (option: MentionOption) => {
    if (!typing) return;
    const el = area.current;
    const start = typing.start;
    const caret = el?.selectionStart ?? el?.value.length ?? 0;
    const inserted = `@${option.insert} `;
    setText((text) => text.slice(0, start) + inserted + text.slice(caret));
    setTyping(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + inserted.length, start + inserted.length);
    });
  };

  const onChange = (value: string, caret: number) => {
    const found = options.length ? mentionAt(value, caret) : null;
    setTyping(found);
    if (found?.query !== typing?.query) setCursor(0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (matches.length === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setCursor((c) => (c + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
      return true;
    }
    if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey) {
      e.preventDefault();
      choose(matches[Math.min(cursor, matches.length - 1)]!);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setTyping(null);
      return true;
    }
    return false;
  };

  const ui =
    matches.length > 0 ? (
      <ul className="menu mention-menu" role="listbox" aria-label={t('channels.mentionList')}>
        {matches.map((o, i) => (
          <li
            key={`${o.kind}:${o.insert}`}
            role="option"
            aria-selected={i === cursor}
            className={`model-option${i === cursor ? ' cursor' : ''}`}
            title={o.kind === 'model' ? t('channels.mentionModel') : o.kind === 'everyone' ? t('channels.mentionEveryone') : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(o);
            }}
          >
            {o.kind === 'person' ? <Avatar name={o.label} /> : <Icon name={o.kind === 'model' ? 'sparkle' : 'users'} size={14} />}
            <span className="truncate grow">{o.label}</span>
            {o.detail && <span className="tiny muted truncate">{o.detail}</span>}
          </li>
        ))}
      </ul>
    ) : null;

  return { onChange, onKeyDown, reset: () => setTyping(null), ui };
}
