import { useState } from 'react';
import type { UsedMemory } from '../../../../server/contracts/memories';
import { memoriesApi } from '../../api/memories';
import { notesApi } from '../../api/notes';
import { useAbilities } from '../../app/abilities';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';

/** Which of the person's memories an answer was given (shown to them only; never saved with the chat). */
export function MemoriesUsed({ memories }: { memories: UsedMemory[] }) {
  const t = useT();
  return (
    <details className="memories-used tiny" data-testid="memories-used">
      <summary>
        <Icon name="sparkle" size={13} />
        {t('chat.memoriesUsed', { count: memories.length })}
      </summary>
      <ul>
        {memories.map((m) => (
          <li key={m.id} dir="auto">
            {m.content}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Quiet proposals of things to remember after an answer: each is kept or dismissed with one press. */
export function MemorySuggestions({ suggestions }: { suggestions: string[] }) {
  const t = useT();
  const toast = useToast();
  const [left, setLeft] = useState(suggestions);
  if (left.length === 0) return null;
  const drop = (text: string) => setLeft((list) => list.filter((s) => s !== text));
  return (
    <div className="memory-suggestions" role="group" aria-label={t('chat.memorySuggestions')}>
      {left.map((text) => (
        <span key={text} className="memory-suggestion tiny">
          <Icon name="sparkle" size={12} />
          <span dir="auto">{t('chat.rememberThis', { text })}</span>
          <button
            type="button"
            className="btn small ghost"
            onClick={() =>
              void memoriesApi.add(text).then(
                () => (drop(text), toast(t('chat.remembered'))),
                (e: unknown) => toast(messageOf(e), 'error'),
              )
            }
          >
            {t('chat.remember')}
          </button>
          <button type="button" className="icon-btn small" onClick={() => drop(text)} aria-label={t('chat.dismiss')} title={t('chat.dismiss')}>
            <Icon name="x" size={12} />
          </button>
        </span>
      ))}
    </div>
  );
}

/** Keeps an answer as a new note (when notes are on for this person). */
export function SaveToNote({ text }: { text: string }) {
  const t = useT();
  const toast = useToast();
  const { notes } = useAbilities();
  const [saved, setSaved] = useState(false);
  if (!notes) return null;
  const save = async () => {
    const first = text.split('\n').find((line) => line.trim()) ?? '';
    const title = first.replace(/^[#>*\-\s]+/, '').replace(/[*_`]/g, '').trim().slice(0, 80) || t('notes.untitled');
    try {
      await notesApi.create(title, text);
      setSaved(true);
      toast(t('chat.savedToNote', { title }));
    } catch (error) {
      toast(messageOf(error), 'error');
    }
  };
  return (
    <button type="button" className="icon-btn small" onClick={() => void save()} disabled={saved} aria-label={t('chat.saveToNote')} title={t('chat.saveToNote')}>
      <Icon name={saved ? 'check' : 'file'} size={15} />
    </button>
  );
}
