import { useEffect, useMemo, useRef, useState } from 'react';
import type { PickableModel } from '../../api/models';
import { Icon } from '../../components/Icon';
import { useDismiss } from '../../hooks/use-dismiss';
import { useT } from '../../lib/i18n';

type Pickable = PickableModel & { kind?: string; provider?: string | null; provider_index?: number | null; provider_name?: string | null };

function groupKey(m: Pickable): string {
  if (m.kind === 'custom' || (m.kind === undefined && m.base_model_id)) return 'custom';
  return m.provider ? `${m.provider}:${m.provider_index ?? 0}` : 'other';
}

function groupLabel(m: Pickable, t: ReturnType<typeof useT>): string {
  const key = groupKey(m);
  if (key === 'custom') return t('chat.groupWorkspace');
  if (m.provider_name) return m.provider_name;
  if (m.provider === 'compat') return t('chat.connectionCompat', { n: (m.provider_index ?? 0) + 1 });
  if (m.provider === 'local') return t('chat.connectionLocal', { n: (m.provider_index ?? 0) + 1 });
  if (m.provider === 'builtin') return t('chat.groupBuiltin');
  return t('chat.groupOther');
}

/** A searchable dropdown of the models the user may chat with (base and custom). */
export function ModelPicker({ models, value, onChange, loading, unreachable }: { models: PickableModel[]; value: string | null; onChange: (id: string) => void; loading?: boolean; unreachable?: boolean }) {
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

  // Grouped by where they run: the workspace's own models first, then each connection; names once, ids on hover.
  const groups = useMemo(() => {
    const out: Array<{ key: string; label: string; models: Array<{ m: PickableModel; i: number }> }> = [];
    filtered.forEach((m, i) => {
      const key = groupKey(m);
      let g = out.find((x) => x.key === key);
      if (!g) out.push((g = { key, label: groupLabel(m, t), models: [] }));
      g.models.push({ m, i });
    });
    out.sort((a, b) => (a.key === 'custom' ? -1 : b.key === 'custom' ? 1 : a.key.localeCompare(b.key)));
    // Keyboard order follows the groups.
    let n = 0;
    for (const g of out) for (const entry of g.models) entry.i = n++;
    return out;
  }, [filtered, t]);
  const ordered = useMemo(() => groups.flatMap((g) => g.models.map((e) => e.m)), [groups]);

  useDismiss(ref, open, () => setOpen(false));
  useEffect(() => setCursor(0), [query]);

  const choose = (id: string) => {
    onChange(id);
    setOpen(false);
    setQuery('');
  };

  return (
    <div className="model-picker" ref={ref}>
      <button type="button" className="model-button" aria-haspopup="listbox" aria-expanded={open} aria-label={t('chat.modelNamed', { name: selected?.name ?? (unreachable && value ? value : t('chat.chooseModel')) })} onClick={() => setOpen((o) => !o)} disabled={loading}>
        <span className="truncate">{selected?.name ?? (value && unreachable ? value : loading ? t('common.loading') : t('chat.chooseModel'))}</span>
        {unreachable && <span className="badge warning">{t('chat.unavailable')}</span>}
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
              } else if (e.key === 'Enter' && ordered[cursor]) {
                e.preventDefault();
                choose(ordered[cursor].id);
              } else if (e.key === 'Escape') setOpen(false);
            }}
          />
          <div role="listbox" aria-label={t('chat.model')} className="model-options">
            {filtered.length === 0 && <div className="muted small" style={{ padding: 10 }}>{models.length ? '—' : t('chat.noModels')}</div>}
            {groups.map((g) => (
              <div key={g.key} role="group" aria-label={g.label}>
                {groups.length > 1 && <div className="model-group tiny muted">{g.label}</div>}
                {g.models.map(({ m, i }) => (
                  <div key={m.id} role="option" aria-selected={m.id === value} title={m.id} className={`model-option${i === cursor ? ' cursor' : ''}`} onMouseEnter={() => setCursor(i)} onClick={() => choose(m.id)}>
                    <span className="grow" style={{ minWidth: 0 }}>
                      <span className="truncate" style={{ display: 'block', fontWeight: 550 }}>
                        {m.name}
                      </span>
                      {m.meta?.description && (
                        <span className="truncate tiny muted" style={{ display: 'block' }}>
                          {m.meta.description}
                        </span>
                      )}
                    </span>
                    {m.id === value && <Icon name="check" size={16} />}
                  </div>
                ))}
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
