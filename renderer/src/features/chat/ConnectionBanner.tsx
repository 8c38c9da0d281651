import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { chatExtrasApi } from '../../api/chat-extras';
import { Icon } from '../../components/Icon';
import { formatList } from '../../lib/format';
import { useT } from '../../lib/i18n';

/** Says which connection cannot be reached (its models are missing from the picker); admins get a link to fix it. */
export function ConnectionBanner({ isAdmin, modelMissing }: { isAdmin: boolean; modelMissing?: string | null }) {
  const t = useT();
  const status = useQuery({ queryKey: ['connections', 'status'], queryFn: chatExtrasApi.connectionStatus, refetchInterval: 30_000, retry: false });
  const down = status.data?.unreachable ?? [];
  if (down.length === 0 && !modelMissing) return null;
  const names = down.map((c) => {
    const name = t(c.kind === 'compat' ? 'chat.connectionCompat' : 'chat.connectionLocal', { n: c.index + 1 });
    return c.url ? t('chat.connectionAt', { name, url: c.url }) : name;
  });
  return (
    <div className="chat-notice">
      <div className="notice warning" role="status" data-testid="connection-banner">
        <Icon name="alert" />
        <div className="grow">
          {down.length > 0 ? t('chat.connectionDown', { names: formatList(names) }) : null}
          {modelMissing && <div>{t('chat.modelUnavailable', { model: modelMissing })}</div>}
        </div>
        {isAdmin && down.length > 0 && (
          <Link className="btn small" to="/admin/connections">
            {t('chat.openConnections')}
          </Link>
        )}
      </div>
    </div>
  );
}
