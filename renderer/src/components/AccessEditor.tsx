import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AccessControl } from '../../../server/contracts/access';
import { groupsApi } from '../api/groups';
import { usersApi } from '../api/users';
import { useUser } from '../app/session';
import { useT } from '../lib/i18n';

function toggleIn(list: string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

/** Picked people (press one to take them off) and a search that adds more, by name or email. */
function PeoplePicker({ label, selected, onChange }: { label: string; selected: string[]; onChange: (ids: string[]) => void }) {
  const t = useT();
  const me = useUser();
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const id = setTimeout(() => setDebounced(query.trim()), 200);
    return () => clearTimeout(id);
  }, [query]);
  const found = useQuery({ queryKey: ['users', 'search', debounced], queryFn: () => usersApi.search(debounced), enabled: debounced.length > 0 });
  const cards = useQueries({ queries: selected.map((id) => ({ queryKey: ['users', 'card', id], queryFn: () => usersApi.get(id), staleTime: 5 * 60_000 })) });
  // The owner always has access: they are never offered.
  const offered = (found.data?.users ?? []).filter((u) => u.id !== me.id && !selected.includes(u.id));
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      {selected.length > 0 && (
        <div className="chips-input">
          {selected.map((id, i) => (
            <button key={id} type="button" className="chip-toggle" aria-pressed={true} onClick={() => onChange(selected.filter((x) => x !== id))}>
              {cards[i]?.data?.name ?? id}
            </button>
          ))}
        </div>
      )}
      <input className="input" type="search" aria-label={label} placeholder={t('workspace.findPeople')} value={query} onChange={(e) => setQuery(e.target.value)} />
      {debounced.length > 0 && found.isSuccess && (
        <div className="chips-input">
          {offered.length === 0 ? (
            <span className="muted small">{t('workspace.noPeopleFound')}</span>
          ) : (
            offered.map((u) => (
              <button key={u.id} type="button" className="chip-toggle" aria-pressed={false} onClick={() => (onChange([...selected, u.id]), setQuery(''))}>
                {u.name}
              </button>
            ))
          )}
        </div>
      )}
    </div>
  );
}

/**
 * Who may use and change a shared resource: public (`null`) or private to the owner plus the
 * people and groups picked for using and for editing. While private and shared with no one,
 * `privateHint` says plainly that only the owner can use it. Without `canMakePublic` (the
 * person lacks the public-sharing permission) Public is not offered for something private: the
 * service would keep it private anyway, so the choice is shown disabled with the reason.
 */
export function AccessEditor({
  value,
  onChange,
  name,
  publicLabel,
  privateLabel,
  privateHint,
  canMakePublic = true,
}: {
  value: AccessControl;
  onChange: (next: AccessControl) => void;
  name: string;
  publicLabel?: string;
  privateLabel?: string;
  privateHint?: string;
  canMakePublic?: boolean;
}) {
  const t = useT();
  const groups = useQuery({ queryKey: ['groups'], queryFn: groupsApi.list });
  const isPublic = value === null;
  const access = value ?? {};
  const read = { group_ids: access.read?.group_ids ?? [], user_ids: access.read?.user_ids ?? [] };
  const write = { group_ids: access.write?.group_ids ?? [], user_ids: access.write?.user_ids ?? [] };
  const set = (next: { read?: typeof read; write?: typeof write }) => onChange({ read: next.read ?? read, write: next.write ?? write });
  const sharedWithNoOne = read.group_ids.length + read.user_ids.length + write.group_ids.length + write.user_ids.length === 0;
  const groupChips = (selected: string[], onToggle: (id: string) => void) => (
    <div className="chips-input">
      {(groups.data ?? []).map((g) => (
        <button key={g.id} type="button" className="chip-toggle" aria-pressed={selected.includes(g.id)} onClick={() => onToggle(g.id)}>
          {g.name}
        </button>
      ))}
    </div>
  );
  return (
    <div className="col" role="radiogroup" aria-label={t('workspace.access')}>
      <label className="checkbox">
        <input type="radio" name={name} checked={isPublic} disabled={!canMakePublic && !isPublic} onChange={() => onChange(null)} />
        {publicLabel ?? t('workspace.public')}
      </label>
      {!canMakePublic && !isPublic && (
        <p className="muted small" data-testid="access-public-needs-permission">
          {t('workspace.publicNeedsPermission')}
        </p>
      )}
      <label className="checkbox">
        <input type="radio" name={name} checked={!isPublic} onChange={() => set({})} />
        {privateLabel ?? t('workspace.private')}
      </label>
      {!isPublic && sharedWithNoOne && (
        <p className="muted small" data-testid="access-private-hint">
          {privateHint ?? t('workspace.privateHint')}
        </p>
      )}
      {!isPublic && (
        <div className="form-grid access-grid">
          <PeoplePicker label={t('workspace.readPeople')} selected={read.user_ids} onChange={(ids) => set({ read: { ...read, user_ids: ids } })} />
          <PeoplePicker label={t('workspace.writePeople')} selected={write.user_ids} onChange={(ids) => set({ write: { ...write, user_ids: ids } })} />
          {(groups.data ?? []).length > 0 && (
            <>
              <div className="field">
                <span className="field-label">{t('workspace.readGroups')}</span>
                {groupChips(read.group_ids, (id) => set({ read: { ...read, group_ids: toggleIn(read.group_ids, id) } }))}
              </div>
              <div className="field">
                <span className="field-label">{t('workspace.writeGroups')}</span>
                {groupChips(write.group_ids, (id) => set({ write: { ...write, group_ids: toggleIn(write.group_ids, id) } }))}
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}
