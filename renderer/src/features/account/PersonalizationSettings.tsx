import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { memoriesApi, type Memory } from '../../api/memories';
import { useAbilities } from '../../app/abilities';
import { useSettings } from '../../app/settings';
import { useConfirm } from '../../components/Confirm';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Switch } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';
import './personalization.css';

/** Settings → Personalization: memory on or off, suggestions, and the person's memories (add, edit, delete, forget all). */
export function PersonalizationSettings() {
  const t = useT();
  const { memories: allowed } = useAbilities();
  const { settings, update } = useSettings();
  if (!allowed) return null;
  return (
    <section className="card" aria-labelledby="personal-h">
      <div className="card-title">
        <h2 id="personal-h">{t('account.personalization')}</h2>
      </div>
      <p className="section-desc">{t('account.personalizationDesc')}</p>
      <div className="col">
        <Switch label={t('account.memoryOn')} hint={t('account.memoryOnHint')} checked={settings.memory === true} onChange={(v) => void update({ memory: v })} />
        <Switch label={t('account.memorySuggestions')} hint={t('account.memorySuggestionsHint')} checked={settings.memory_suggestions === true} onChange={(v) => void update({ memory_suggestions: v })} />
        <MemoryList />
      </div>
    </section>
  );
}

function MemoryList() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const list = useQuery({ queryKey: ['memories'], queryFn: memoriesApi.list });
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: ['memories'] });
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      await refresh();
    } catch (error) {
      toast(messageOf(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="col memory-list">
      <h3 className="small">{t('account.memories')}</h3>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const text = draft.trim();
          if (text) void run(async () => (await memoriesApi.add(text), setDraft('')));
        }}
      >
        <input className="input grow" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={2000} placeholder={t('account.memoryPlaceholder')} aria-label={t('account.memoryNew')} dir="auto" />
        <button type="submit" className="btn primary" disabled={busy || !draft.trim()}>
          <Icon name="plus" size={15} />
          {t('account.memoryAdd')}
        </button>
      </form>
      {list.isPending && <Loading />}
      {list.isError && <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />}
      {list.data?.length === 0 && <p className="muted small">{t('account.memoriesEmpty')}</p>}
      <ul className="memory-items">
        {list.data?.map((m) => (
          <MemoryRow key={m.id} memory={m} busy={busy} onSave={(text) => run(() => memoriesApi.update(m.id, text))} onDelete={() => run(() => memoriesApi.remove(m.id))} />
        ))}
      </ul>
      {(list.data?.length ?? 0) > 0 && (
        <div className="row end">
          <button
            type="button"
            className="btn danger small"
            disabled={busy}
            onClick={async () => {
              if (await confirm(t('account.memoriesWipeConfirm'), { action: t('account.memoriesWipe'), danger: true })) void run(() => memoriesApi.wipe());
            }}
          >
            {t('account.memoriesWipe')}
          </button>
        </div>
      )}
    </div>
  );
}

function MemoryRow({ memory, busy, onSave, onDelete }: { memory: Memory; busy: boolean; onSave: (text: string) => Promise<void>; onDelete: () => Promise<void> }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(memory.content);
  return (
    <li className="memory-item" data-testid="memory-item">
      {editing ? (
        <form
          className="row grow"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) void onSave(text.trim()).then(() => setEditing(false));
          }}
        >
          <input className="input grow" value={text} onChange={(e) => setText(e.target.value)} maxLength={2000} aria-label={t('account.memoryEdit')} autoFocus dir="auto" />
          <button type="submit" className="btn small primary" disabled={busy || !text.trim()}>
            {t('common.save')}
          </button>
          <button type="button" className="btn small" onClick={() => (setText(memory.content), setEditing(false))}>
            {t('common.cancel')}
          </button>
        </form>
      ) : (
        <>
          <span className="grow" dir="auto">
            {memory.content}
          </span>
          <button type="button" className="icon-btn small" onClick={() => setEditing(true)} aria-label={t('account.memoryEdit')} title={t('account.memoryEdit')}>
            <Icon name="pencil" size={14} />
          </button>
          <button type="button" className="icon-btn small" disabled={busy} onClick={() => void onDelete()} aria-label={t('account.memoryDelete')} title={t('account.memoryDelete')}>
            <Icon name="trash" size={14} />
          </button>
        </>
      )}
    </li>
  );
}
