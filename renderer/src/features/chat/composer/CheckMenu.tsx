import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { isMissing, messageOf } from '../../../components/Feedback';
import { useT } from '../../../lib/i18n';

/** A popover menu of checkboxes read by one query (knowledge bases, tools), with loading, error and empty lines. */
export function CheckMenu<T>({
  title,
  none,
  query,
  itemKey,
  checked,
  onToggle,
  label,
  aside,
  hint,
}: {
  title: string;
  none: string;
  query: UseQueryResult<T[]>;
  itemKey: (item: T) => string;
  checked: (item: T) => boolean;
  onToggle: (item: T, on: boolean) => void;
  label: (item: T) => string;
  aside?: (item: T) => ReactNode;
  hint?: (item: T) => string;
}) {
  const t = useT();
  const line = (text: string) => (
    <div className="small muted" style={{ padding: 10 }}>
      {text}
    </div>
  );
  return (
    <div className="menu knowledge-menu" role="group" aria-label={title}>
      <div className="tiny muted" style={{ padding: '6px 10px' }}>
        {title}
      </div>
      {query.isPending && line(t('common.loading'))}
      {query.isError && line(isMissing(query.error) ? t('common.notAvailable') : messageOf(query.error))}
      {query.data?.length === 0 && line(none)}
      {query.data?.map((item) => {
        const on = checked(item);
        return (
          <label key={itemKey(item)} className="menu-item checkbox" title={hint?.(item)}>
            <input type="checkbox" checked={on} onChange={() => onToggle(item, !on)} />
            <span className="grow truncate">{label(item)}</span>
            {aside?.(item)}
          </label>
        );
      })}
    </div>
  );
}
