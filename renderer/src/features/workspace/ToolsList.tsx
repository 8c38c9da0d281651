import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toolsApi } from '../../api/tools';
import { useUser } from '../../app/session';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { ItemActions, ResourceCard, ResourceIcon, ResourceList, ResourceTitle } from '../../components/ResourceList';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';
import { OAuthConnect } from './OAuthConnect';

const toolEditPath = (id: string) => `/workspace/tools/edit/${encodeURIComponent(id)}`;

/** Tools: Python and OpenAPI tools, and MCP servers' tool entries. */
export function ToolsList() {
  const t = useT();
  const user = useUser();
  const qc = useQueryClient();
  const toast = useToast();
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
      <ResourceList query={tools} empty={t('workspace.noTools')} itemKey={(tool) => tool.id}>
        {(tool) => {
          const mcp = tool.id.startsWith('server:');
          const editable = admin && !mcp;
          const editPath = toolEditPath(tool.id);
          return (
            <ResourceCard
              icon={<ResourceIcon name={mcp ? 'server' : 'wrench'} />}
              title={<ResourceTitle to={editable ? editPath : undefined}>{tool.name}</ResourceTitle>}
              meta={
                <div className="row gap-s">
                  <span className="badge">{t(`common.toolType.${tool.type}`)}</span>
                  {tool.enabled === false && <span className="badge">{t('common.disabled')}</span>}
                  {mcp && tool.authenticated !== undefined && <OAuthConnect serverId={tool.id.replace(/^server:mcp:/, '')} authenticated={tool.authenticated} />}
                </div>
              }
              description={tool.description || tool.meta?.description || ''}
              footer={
                editable && (
                  <div className="row end">
                    <ItemActions name={tool.name} editTo={editPath} onDelete={() => remove.mutate(tool.id)} confirmDelete={t('workspace.deleteToolConfirm', { name: tool.name })} />
                  </div>
                )
              }
            />
          );
        }}
      </ResourceList>
    </section>
  );
}
