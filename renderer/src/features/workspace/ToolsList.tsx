import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toolsApi } from '../../api/tools';
import { useUser } from '../../app/session';
import { useConfirm } from '../../components/Confirm';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';
import { OAuthConnect } from './OAuthConnect';

/** Tools: Python and OpenAPI tools, and MCP servers' tool entries. */
export function ToolsList() {
  const t = useT();
  const user = useUser();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const tools = useQuery({ queryKey: ['tools'], queryFn: toolsApi.list });
  const remove = useMutation({ mutationFn: toolsApi.remove, onSuccess: () => void qc.invalidateQueries({ queryKey: ['tools'] }), onError: (e) => toast(messageOf(e), 'error') });
  const admin = user.role === 'admin';
  return (
    <section>
      <div className="row mb wrap">
        {!admin && <span className="muted small">{t('workspace.toolAdminOnly')}</span>}
        <div className="grow" />
        {admin && (
          <>
            <Link to="/workspace/tools/new?type=openapi" className="btn">
              <Icon name="link" size={15} />
              {t('workspace.newOpenApiTool')}
            </Link>
            <Link to="/workspace/tools/new" className="btn primary">
              <Icon name="plus" size={16} />
              {t('workspace.newTool')}
            </Link>
          </>
        )}
      </div>
      {tools.isPending && <Loading />}
      {tools.isError && <ErrorNotice error={tools.error} onRetry={() => void tools.refetch()} />}
      {tools.data?.length === 0 && <div className="empty card">{t('workspace.noTools')}</div>}
      <div className="cards">
        {tools.data?.map((tool) => {
          const mcp = tool.id.startsWith('server:');
          return (
            <article key={tool.id} className="item-card">
              <div className="row">
                <span className="avatar" style={{ background: 'var(--accent-soft)', color: 'var(--accent)' }}>
                  <Icon name={mcp ? 'server' : 'wrench'} size={16} />
                </span>
                <div className="grow" style={{ minWidth: 0 }}>
                  {admin && !mcp ? (
                    <Link to={`/workspace/tools/edit/${encodeURIComponent(tool.id)}`} className="title truncate" style={{ display: 'block' }}>
                      {tool.name}
                    </Link>
                  ) : (
                    <span className="title truncate" style={{ display: 'block' }}>
                      {tool.name}
                    </span>
                  )}
                  <div className="row gap-s">
                    <span className="badge">{tool.type}</span>
                    {tool.enabled === false && <span className="badge">{t('common.disabled')}</span>}
                    {mcp && tool.authenticated !== undefined && <OAuthConnect serverId={tool.id.replace(/^server:mcp:/, '')} authenticated={tool.authenticated} />}
                  </div>
                </div>
              </div>
              <div className="desc">{tool.description || tool.meta?.description || '—'}</div>
              {admin && !mcp && (
                <div className="row end">
                  <Link to={`/workspace/tools/edit/${encodeURIComponent(tool.id)}`} className="icon-btn small" aria-label={`${t('common.edit')}: ${tool.name}`}>
                    <Icon name="pencil" size={15} />
                  </Link>
                  <button
                    type="button"
                    className="icon-btn small"
                    aria-label={`${t('common.delete')}: ${tool.name}`}
                    onClick={async () => {
                      if (await confirm(t('workspace.deleteToolConfirm', { name: tool.name }), { action: t('common.delete') })) remove.mutate(tool.id);
                    }}
                  >
                    <Icon name="trash" size={15} />
                  </button>
                </div>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}
