import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { chatExtrasApi, type PromptSuggestion } from '../../api/chat-extras';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';
import { localizedSuggestion } from './default-suggestions';

/** The empty chat: a greeting, the composer in the middle, and suggested prompts (admins can edit them). */
export function EmptyChat({ name, composer, onPick, isAdmin }: { name: string; composer: ReactNode; onPick: (text: string) => void; isAdmin: boolean }) {
  const t = useT();
  const suggestions = useQuery({ queryKey: ['suggestions'], queryFn: chatExtrasApi.suggestions, staleTime: 60_000, retry: false });
  const [editing, setEditing] = useState(false);
  const list = suggestions.data?.suggestions ?? [];
  return (
    <div className="chat-empty">
      <div className="greeting-mark" aria-hidden="true">
        <Icon name="sparkle" size={26} />
      </div>
      <h1>{t('chat.greeting', { name })}</h1>
      <p className="muted">{t('chat.greetingSub')}</p>
      <div className="empty-composer">{composer}</div>
      {(list.length > 0 || isAdmin) && (
        <div className="suggestions" aria-label={t('chat.suggested')}>
          <div className="suggestions-head tiny muted">
            <span>{t('chat.suggested')}</span>
            {isAdmin && (
              <button type="button" className="icon-btn small" onClick={() => setEditing(true)} aria-label={t('chat.editSuggestions')} title={t('chat.editSuggestions')}>
                <Icon name="pencil" size={13} />
              </button>
            )}
          </div>
          <div className="suggestion-grid">
            {list.map((suggestion, i) => {
              const s = localizedSuggestion(suggestion, t);
              return (
                <button key={i} type="button" className="suggestion" onClick={() => onPick(s.content)}>
                  <span className="suggestion-title">{s.title[0]}</span>
                  {s.title[1] && <span className="tiny muted">{s.title[1]}</span>}
                </button>
              );
            })}
          </div>
        </div>
      )}
      {editing && <SuggestionsEditor initial={list} onClose={() => setEditing(false)} />}
    </div>
  );
}

function SuggestionsEditor({ initial, onClose }: { initial: PromptSuggestion[]; onClose: () => void }) {
  const t = useT();
  const qc = useQueryClient();
  const [rows, setRows] = useState(() => initial.map((s) => ({ title: s.title[0] ?? '', sub: s.title[1] ?? '', content: s.content })));
  const save = useMutation({
    mutationFn: () => chatExtrasApi.setSuggestions(rows.filter((r) => r.content.trim()).map((r) => ({ title: r.sub.trim() ? [r.title.trim() || r.content.slice(0, 40), r.sub.trim()] : [r.title.trim() || r.content.slice(0, 40)], content: r.content.trim() }))),
    onSuccess: (data) => {
      qc.setQueryData(['suggestions'], data);
      onClose();
    },
  });
  const set = (i: number, patch: Partial<(typeof rows)[number]>) => setRows((list) => list.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Modal title={t('chat.editSuggestions')} onClose={onClose} wide>
      <div className="col">
        {rows.map((r, i) => (
          <fieldset key={i} className="suggestion-row">
            <legend className="tiny muted">{t('chat.suggestionN', { n: i + 1 })}</legend>
            <div className="row">
              <input className="input" value={r.title} onChange={(e) => set(i, { title: e.target.value })} aria-label={t('chat.suggestionTitle', { n: i + 1 })} placeholder={t('chat.suggestionTitlePh')} />
              <input className="input" value={r.sub} onChange={(e) => set(i, { sub: e.target.value })} aria-label={t('chat.suggestionSub', { n: i + 1 })} placeholder={t('chat.suggestionSubPh')} />
              <button type="button" className="icon-btn" onClick={() => setRows((list) => list.filter((_, j) => j !== i))} aria-label={t('chat.suggestionRemove', { n: i + 1 })}>
                <Icon name="trash" size={15} />
              </button>
            </div>
            <textarea className="textarea" rows={2} value={r.content} onChange={(e) => set(i, { content: e.target.value })} aria-label={t('chat.suggestionPrompt', { n: i + 1 })} />
          </fieldset>
        ))}
        <div className="row">
          <button type="button" className="btn small" onClick={() => setRows((list) => [...list, { title: '', sub: '', content: '' }])}>
            <Icon name="plus" size={14} />
            {t('chat.suggestionAdd')}
          </button>
          <div className="grow" />
          {save.isError && <span className="small" style={{ color: 'var(--danger)' }}>{messageOf(save.error)}</span>}
          <button type="button" className="btn small" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn small primary" onClick={() => save.mutate()} disabled={save.isPending}>
            {t('common.save')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
