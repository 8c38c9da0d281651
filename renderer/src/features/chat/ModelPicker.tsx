import { useEffect, useMemo, useRef, useState } from 'react';
import type { PickableModel } from '../../api/models';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';

/** A searchable dropdown of the models the user may chat with (base and custom). */
export function ModelPicker({ models, value, onChange, loading }: { models: PickableModel[]; value: string | null; onChange: (id: string) => void; loading?: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const selected = models.find((m) => m.id === value);
  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    return models.filter((m) => !q || m.name.toLowerCase().includes(q) || m.id.toLowerCase().includes(q));
  }, [models, query]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  useEffect(() => setCursor(0), [query]);

  const choose = (id: string) => {
    onChange(id);
    setOpen(false);
    setQuery('');
  };

  return (
    <div className="model-picker" ref={ref}>
      <button type="button" className="model-button" aria-haspopup="listbox" aria-expanded={open} aria-label={`${t('chat.model')}: ${selected?.name ?? t('chat.chooseModel')}`} onClick={() => setOpen((o) => !o)} disabled={loading}>
        <span className="truncate">{selected?.name ?? (loading ? t('common.loading') : t('chat.chooseModel'))}</span>
        <Icon name="chevronDown" size={16} />
      </button>
      {open && (
        <div className="menu model-menu">
          <input
            className="input"
            autoFocus
            placeholder={t('chat.searchModels')}
            aria-label={t('chat.searchModels')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                setCursor((c) => Math.min(c + 1, filtered.length - 1));
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setCursor((c) => Math.max(c - 1, 0));
              } else if (e.key === 'Enter' && filtered[cursor]) {
                e.preventDefault();
                choose(filtered[cursor].id);
              } else if (e.key === 'Escape') setOpen(false);
            }}
          />
          <ul role="listbox" aria-label={t('chat.model')} className="model-options">
            {filtered.length === 0 && <li className="muted small" style={{ padding: 10 }}>{models.length ? '—' : t('chat.noModels')}</li>}
            {filtered.map((m, i) => (
              <li key={m.id} role="option" aria-selected={m.id === value} className={`model-option${i === cursor ? ' cursor' : ''}`} onMouseEnter={() => setCursor(i)} onClick={() => choose(m.id)}>
                <span className="grow" style={{ minWidth: 0 }}>
                  <span className="truncate" style={{ display: 'block', fontWeight: 550 }}>
                    {m.name}
                  </span>
                  <span className="truncate tiny muted" style={{ display: 'block' }}>
                    {m.meta?.description || m.id}
                  </span>
                </span>
                {m.base_model_id && <span className="badge accent">custom</span>}
                {m.id === value && <Icon name="check" size={16} />}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
