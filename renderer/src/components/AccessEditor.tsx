import { useQuery } from '@tanstack/react-query';
import type { AccessControl } from '../../../server/contracts/access';
import { groupsApi } from '../api/groups';
import { useT } from '../lib/i18n';

function toggleIn(list: string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

/**
 * Who may use and change a shared resource: public (`null`) or private to the owner plus the
 * groups picked for reading and writing. Users named individually are kept as they are.
 */
export function AccessEditor({ value, onChange, name, publicLabel, privateLabel }: { value: AccessControl; onChange: (next: AccessControl) => void; name: string; publicLabel?: string; privateLabel?: string }) {
  const t = useT();
  const groups = useQuery({ queryKey: ['groups'], queryFn: groupsApi.list });
  const isPublic = value === null;
  const access = value ?? {};
  const readGroups = access.read?.group_ids ?? [];
  const writeGroups = access.write?.group_ids ?? [];
  const set = (read: string[], write: string[]) =>
    onChange({ read: { group_ids: read, user_ids: access.read?.user_ids ?? [] }, write: { group_ids: write, user_ids: access.write?.user_ids ?? [] } });
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
        <input type="radio" name={name} checked={isPublic} onChange={() => onChange(null)} />
        {publicLabel ?? t('workspace.public')}
      </label>
      <label className="checkbox">
        <input type="radio" name={name} checked={!isPublic} onChange={() => set(readGroups, writeGroups)} />
        {privateLabel ?? t('workspace.private')}
      </label>
      {!isPublic && (groups.data ?? []).length > 0 && (
        <div className="form-grid">
          <div className="field">
            <span className="field-label">{t('workspace.readGroups')}</span>
            {groupChips(readGroups, (id) => set(toggleIn(readGroups, id), writeGroups))}
          </div>
          <div className="field">
            <span className="field-label">{t('workspace.writeGroups')}</span>
            {groupChips(writeGroups, (id) => set(readGroups, toggleIn(writeGroups, id)))}
          </div>
        </div>
      )}
    </div>
  );
}
