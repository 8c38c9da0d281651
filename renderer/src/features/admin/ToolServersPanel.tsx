import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toolsApi, type ToolServerAuth, type ToolServerConnection, type ToolServerVerifyResponse } from '../../api/tools';
import { OAuthConnect } from '../workspace/OAuthConnect';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { SelectField, Switch, TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';

const AUTH_TYPES: ToolServerAuth[] = ['none', 'bearer', 'session', 'system_oauth', 'oauth_2.1'];

function blank(): ToolServerConnection {
  return { url: '', path: 'openapi.json', spec_type: 'url', spec: '', type: 'openapi', auth_type: 'none', key: '', enable: true, config: { enable: true }, info: { id: '', name: '', description: '' } };
}

/** MCP and OpenAPI tool servers: the whole list is saved at once, as the interface says. */
export function ToolServersPanel() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const servers = useQuery({ queryKey: ['config', 'tool-servers'], queryFn: toolsApi.servers });
  const [editing, setEditing] = useState<{ index: number; value: ToolServerConnection } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = servers.data?.TOOL_SERVER_CONNECTIONS ?? [];
  const tools = useQuery({ queryKey: ['tools'], queryFn: toolsApi.list });

  const save = async (next: ToolServerConnection[]) => {
    setError(null);
    try {
      const res = await toolsApi.setServers(next);
      qc.setQueryData(['config', 'tool-servers'], res);
      void qc.invalidateQueries({ queryKey: ['tools'] });
      toast(t('common.saved'));
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    }
  };

  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('admin.toolServers')}</h2>
        <button type="button" className="btn small primary" onClick={() => setEditing({ index: -1, value: blank() })} disabled={!servers.data}>
          <Icon name="plus" size={14} />
          {t('admin.addToolServer')}
        </button>
      </div>
      <p className="section-desc">{t('admin.toolServersDesc')}</p>
      {servers.isPending && <Loading />}
      {servers.isError && <ErrorNotice error={servers.error} onRetry={() => void servers.refetch()} />}
      {error && <div className="notice error mb">{error}</div>}
      {servers.data && list.length === 0 && <p className="muted small">{t('common.none')}</p>}
      {list.length > 0 && (
        <div className="list">
          {list.map((s, i) => {
            const mcpTool = tools.data?.find((x) => x.id === `server:mcp:${s.info.id ?? ''}`);
            return (
              <div key={`${s.url}-${i}`} className="list-item">
                <Icon name="server" />
                <div className="grow" style={{ minWidth: 0 }}>
                  <div className="row gap-s">
                    <strong className="truncate">{s.info.name || s.url}</strong>
                    <span className="badge">{t(`common.toolType.${s.type}`)}</span>
                    <span className="badge">{t(`admin.authType.${s.auth_type}`)}</span>
                  </div>
                  <div className="tiny muted truncate">{s.url}</div>
                </div>
                {s.auth_type === 'oauth_2.1' && s.info.id && <OAuthConnect serverId={s.info.id} authenticated={mcpTool?.authenticated === true} />}
                <Switch label={s.enable ? t('common.enabled') : t('common.disabled')} checked={s.enable} onChange={(v) => void save(list.map((x, j) => (j === i ? { ...x, enable: v, config: { ...x.config, enable: v } } : x)))} />
                <button type="button" className="icon-btn small" onClick={() => setEditing({ index: i, value: s })} aria-label={t('common.editNamed', { name: s.info.name || s.url })}>
                  <Icon name="pencil" size={15} />
                </button>
                <button type="button" className="icon-btn small" onClick={() => void save(list.filter((_, j) => j !== i))} aria-label={t('common.removeNamed', { name: s.info.name || s.url })}>
                  <Icon name="trash" size={15} />
                </button>
              </div>
            );
          })}
        </div>
      )}
      {editing && (
        <ServerEditor
          initial={editing.value}
          onClose={() => setEditing(null)}
          onSave={async (value) => {
            const next = editing.index < 0 ? [...list, value] : list.map((x, j) => (j === editing.index ? value : x));
            if (await save(next)) setEditing(null);
          }}
        />
      )}
    </section>
  );
}

function ServerEditor({ initial, onClose, onSave }: { initial: ToolServerConnection; onClose: () => void; onSave: (v: ToolServerConnection) => Promise<void> }) {
  const t = useT();
  const [v, setV] = useState<ToolServerConnection>(initial);
  const [verify, setVerify] = useState<{ ok: boolean; text: string; specs?: ToolServerVerifyResponse['specs'] } | 'busy' | null>(null);
  const isMcp = v.type === 'mcp';
  const set = (patch: Partial<ToolServerConnection>) => setV((x) => ({ ...x, ...patch }));
  const url = v.url.trim().replace(/\/+$/, '');
  const valid = /^https?:\/\/.+/.test(url) && (!isMcp || (v.info.id ?? '').trim().length > 0);

  const runVerify = async () => {
    setVerify('busy');
    try {
      const res = await toolsApi.verifyServer({ url, type: v.type, auth_type: v.auth_type, key: v.auth_type === 'bearer' ? (v.key ?? null) : null, path: isMcp ? null : v.path, info: v.info.id ? { id: v.info.id } : undefined });
      setVerify(res.status ? { ok: true, text: t('admin.toolsFound', { count: res.specs?.length ?? 0 }), specs: res.specs } : { ok: false, text: t('admin.verifyFail', { detail: t('admin.toolVerifyNoReason') }) });
    } catch (err) {
      setVerify({ ok: false, text: t('admin.verifyFail', { detail: messageOf(err) }) });
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await onSave({
      ...v,
      url,
      path: isMcp ? null : v.path,
      spec_type: 'url',
      spec: isMcp ? null : v.spec,
      key: v.auth_type === 'bearer' ? v.key : null,
      config: { ...v.config, enable: v.enable },
      info: { ...v.info, id: (v.info.id ?? '').trim() || url.replace(/^https?:\/\//, '').replace(/[^\w.-]+/g, '-').slice(0, 100), name: (v.info.name ?? '').trim() || url },
    });
  };

  return (
    <Modal title={initial.url ? initial.info.name || initial.url : t('admin.addToolServer')} onClose={onClose} wide>
      <form className="col" onSubmit={submit}>
        <div className="form-grid">
          <SelectField label={t('admin.serverType')} value={v.type} onChange={(e) => set({ type: e.target.value as ToolServerConnection['type'] })}>
            <option value="openapi">OpenAPI</option>
            <option value="mcp">MCP</option>
          </SelectField>
          <SelectField label={t('admin.authType')} value={v.auth_type} onChange={(e) => set({ auth_type: e.target.value as ToolServerAuth })}>
            {AUTH_TYPES.map((a) => (
              <option key={a} value={a}>
                {t(`admin.authType.${a}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <TextField label={t('admin.baseUrl')} value={v.url} onChange={(e) => set({ url: e.target.value })} placeholder={t('admin.baseUrlPlaceholder')} required />
        {!isMcp && <TextField label={t('admin.specPath')} value={v.path ?? ''} onChange={(e) => set({ path: e.target.value })} />}
        {v.auth_type === 'bearer' && <TextField label={t('admin.apiKey')} type="password" autoComplete="off" value={v.key ?? ''} onChange={(e) => set({ key: e.target.value })} />}
        <div className="form-grid">
          <TextField label={t('admin.serverId')} value={v.info.id} onChange={(e) => set({ info: { ...v.info, id: e.target.value } })} required={isMcp} hint={isMcp ? undefined : t('common.optional')} />
          <TextField label={t('admin.serverName')} value={v.info.name} onChange={(e) => set({ info: { ...v.info, name: e.target.value } })} />
        </div>
        <TextField label={t('common.description')} value={v.info.description ?? ''} onChange={(e) => set({ info: { ...v.info, description: e.target.value } })} />
        <Switch label={t('common.enabled')} checked={v.enable} onChange={(x) => set({ enable: x })} />
        {verify && verify !== 'busy' && (
          <div className={`notice ${verify.ok ? 'success' : 'error'}`} role="status">
            <Icon name={verify.ok ? 'check' : 'alert'} size={16} />
            <div className="grow">
              {verify.text}
              {verify.specs && verify.specs.length > 0 && (
                <ul style={{ margin: '6px 0 0', paddingInlineStart: 18 }}>
                  {verify.specs.slice(0, 12).map((s: { name: string; description?: string }) => (
                    <li key={s.name}>
                      <code>{s.name}</code> {s.description && <span className="muted">— {s.description}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        )}
        <div className="row end">
          <button type="button" className="btn" onClick={() => void runVerify()} disabled={!valid || verify === 'busy'}>
            {verify === 'busy' ? <span className="spinner" aria-hidden="true" /> : <Icon name="zap" size={14} />}
            {t('common.verify')}
          </button>
          <div className="grow" />
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn primary" disabled={!valid}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
