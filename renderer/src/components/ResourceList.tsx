import './resource-list.css';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useT } from '../lib/i18n';
import { useConfirm } from './Confirm';
import { ErrorNotice, Loading } from './Feedback';
import { Icon, type IconName } from './Icon';

/**
 * A list of workspace or admin items read by one query: the spinner, the error with a retry, the
 * empty text, then one entry per item, as cards (`cards`) or as rows of one framed list (`rows`).
 * `items` narrows what is shown (a filter); it defaults to the query's data.
 */
export function ResourceList<T>({
  query,
  items,
  empty,
  layout = 'cards',
  itemKey,
  children,
}: {
  query: UseQueryResult<T[]>;
  items?: T[];
  empty: ReactNode;
  layout?: 'cards' | 'rows';
  itemKey: (item: T) => string;
  children: (item: T) => ReactNode;
}) {
  const shown = items ?? query.data ?? [];
  return (
    <>
      {query.isPending && <Loading />}
      {query.isError && <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && shown.length === 0 && <div className="empty card">{empty}</div>}
      {shown.length > 0 && (
        <div className={layout === 'cards' ? 'cards' : 'list'}>
          {shown.map((item) => (
            <Fragment key={itemKey(item)}>{children(item)}</Fragment>
          ))}
        </div>
      )}
    </>
  );
}

/** The round icon at the start of a card or row. */
export function ResourceIcon({ name, children }: { name?: IconName; children?: ReactNode }) {
  return (
    <span className="avatar resource-icon" aria-hidden={name ? true : undefined}>
      {name ? <Icon name={name} size={16} /> : children}
    </span>
  );
}

/** The title of a card or row: a link when `to` is given. */
export function ResourceTitle({ to, children }: { to?: string; children: ReactNode }) {
  return to ? (
    <Link to={to} className="title truncate resource-title">
      {children}
    </Link>
  ) : (
    <span className="title truncate resource-title">{children}</span>
  );
}

/** One card of a `cards` list: icon, title and what goes under it, a two-line description, a footer. */
export function ResourceCard({ icon, title, meta, description, footer, testId }: { icon: ReactNode; title: ReactNode; meta?: ReactNode; description?: string; footer?: ReactNode; testId?: string }) {
  return (
    <article className="item-card" data-testid={testId}>
      <div className="row">
        {icon}
        <div className="grow" style={{ minWidth: 0 }}>
          {title}
          {meta}
        </div>
      </div>
      {description !== undefined && <div className="desc">{description || '—'}</div>}
      {footer}
    </article>
  );
}

/** One row of a `rows` list: icon, title and subtitle, then badges and actions at the end. */
export function ResourceRow({ icon, title, subtitle, end }: { icon: ReactNode; title: ReactNode; subtitle?: ReactNode; end?: ReactNode }) {
  return (
    <div className="list-item">
      {icon}
      <div className="grow" style={{ minWidth: 0 }}>
        <div style={{ fontWeight: 600 }}>{title}</div>
        {subtitle !== undefined && <div className="small muted truncate">{subtitle || '—'}</div>}
      </div>
      {end}
    </div>
  );
}

/**
 * The edit and delete buttons of an item, labelled with its name; delete asks first with
 * `confirmDelete`. Edit is a link with `editTo`, a button with `onEdit`; `editLabel` is its
 * whole accessible name when given.
 */
export function ItemActions({
  name,
  editTo,
  onEdit,
  editLabel,
  onDelete,
  confirmDelete,
  deleteDisabled,
}: {
  name: string;
  editTo?: string;
  onEdit?: () => void;
  editLabel?: string;
  onDelete?: () => void;
  confirmDelete?: string;
  deleteDisabled?: boolean;
}) {
  const t = useT();
  const confirm = useConfirm();
  const editText = editLabel ?? t('common.editNamed', { name });
  return (
    <>
      {editTo && (
        <Link to={editTo} className="icon-btn small" aria-label={editText}>
          <Icon name="pencil" size={15} />
        </Link>
      )}
      {onEdit && (
        <button type="button" className="icon-btn small" onClick={onEdit} aria-label={editText}>
          <Icon name="pencil" size={15} />
        </button>
      )}
      {onDelete && (
        <button
          type="button"
          className="icon-btn small"
          disabled={deleteDisabled}
          aria-label={t('common.deleteNamed', { name })}
          onClick={async () => {
            if (!confirmDelete || (await confirm(confirmDelete, { action: t('common.delete') }))) onDelete();
          }}
        >
          <Icon name="trash" size={15} />
        </button>
      )}
    </>
  );
}
