import { useState } from 'react';
import { connectionsApi, type CompatSettings, type ConnectionFlags, type LocalSettings } from '../../api/connections';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Switch } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { SaveBar } from './SaveBar';

interface Row {
  url: string;
  key: string;
  enable: boolean;
}

/** Provider connections: OpenAI-compatible and local servers, each with a verify button and an on/off switch. */
export function ConnectionsPanel() {
  const t = useT();
  const compat = useConfigForm<CompatSettings>('compat', connectionsApi.compat, connectionsApi.setCompat);
  const local = useConfigForm<LocalSettings>('local', connectionsApi.local, connectionsApi.setLocal);
  const flags = useConfigForm<ConnectionFlags>('connection-flags', connectionsApi.flags, connectionsApi.setFlags);

  const compatRows: Row[] = (compat.draft?.COMPAT_API_BASE_URLS ?? []).map((url, i) => ({ url, key: compat.draft?.COMPAT_API_KEYS[i] ?? '', enable: compat.draft?.COMPAT_API_CONFIGS[String(i)]?.enable !== false }));
  const localRows: Row[] = (local.draft?.LOCAL_BASE_URLS ?? []).map((url, i) => ({ url, key: local.draft?.LOCAL_API_CONFIGS[String(i)]?.key ?? '', enable: local.draft?.LOCAL_API_CONFIGS[String(i)]?.enable !== false }));

  const setCompatRows = (rows: Row[]) =>
    compat.setDraft((d) =>
      d && {
        ...d,
        COMPAT_API_BASE_URLS: rows.map((r) => r.url),
        COMPAT_API_KEYS: rows.map((r) => r.key),
        COMPAT_API_CONFIGS: Object.fromEntries(rows.map((r, i) => [String(i), { ...(d.COMPAT_API_CONFIGS[String(i)] ?? {}), enable: r.enable }])),
      },
    );
  const setLocalRows = (rows: Row[]) =>
    local.setDraft((d) => d && { ...d, LOCAL_BASE_URLS: rows.map((r) => r.url), LOCAL_API_CONFIGS: Object.fromEntries(rows.map((r, i) => [String(i), { ...(d.LOCAL_API_CONFIGS[String(i)] ?? {}), enable: r.enable, ...(r.key ? { key: r.key } : {}) }])) });

  return (
    <>
      <p className="section-desc" style={{ marginTop: 0 }}>
        {t('admin.connectionsDesc')}
      </p>
      <section className="card">
        <div className="card-title">
          <h2>{t('admin.compat')}</h2>
          <button type="button" className="btn small" onClick={() => setCompatRows([...compatRows, { url: 'https://api.openai.com/v1', key: '', enable: true }])} disabled={!compat.draft}>
            <Icon name="plus" size={14} />
            {t('admin.addConnection')}
          </button>
        </div>
        {compat.query.isPending && <Loading />}
        {compat.query.isError && <ErrorNotice error={compat.query.error} onRetry={() => void compat.query.refetch()} />}
        {compat.draft && (
          <>
            <Rows rows={compatRows} withKey onChange={setCompatRows} verify={(r) => connectionsApi.verifyCompat(r.url, r.key)} />
            <SaveBar onSave={() => void compat.submit()} saving={compat.saving} dirty={compat.dirty} error={compat.error} />
          </>
        )}
      </section>
      <section className="card">
        <div className="card-title">
          <h2>{t('admin.local')}</h2>
          <button type="button" className="btn small" onClick={() => setLocalRows([...localRows, { url: 'http://127.0.0.1:11434', key: '', enable: true }])} disabled={!local.draft}>
            <Icon name="plus" size={14} />
            {t('admin.addConnection')}
          </button>
        </div>
        {local.query.isPending && <Loading />}
        {local.query.isError && <ErrorNotice error={local.query.error} onRetry={() => void local.query.refetch()} />}
        {local.draft && (
          <>
            <Rows rows={localRows} withKey onChange={setLocalRows} verify={(r) => connectionsApi.verifyLocal(r.url, r.key)} />
            <SaveBar onSave={() => void local.submit()} saving={local.saving} dirty={local.dirty} error={local.error} />
          </>
        )}
      </section>
      <section className="card">
        {flags.query.isError && <ErrorNotice error={flags.query.error} />}
        {flags.draft && (
          <div className="col">
            <Switch label={t('admin.directConnections')} checked={flags.draft.ENABLE_DIRECT_CONNECTIONS} onChange={(v) => flags.set('ENABLE_DIRECT_CONNECTIONS', v)} />
            <Switch label={t('admin.modelsCache')} checked={flags.draft.ENABLE_BASE_MODELS_CACHE} onChange={(v) => flags.set('ENABLE_BASE_MODELS_CACHE', v)} />
            <SaveBar onSave={() => void flags.submit()} saving={flags.saving} dirty={flags.dirty} error={flags.error} />
          </div>
        )}
      </section>
    </>
  );
}

function Rows({ rows, withKey, onChange, verify }: { rows: Row[]; withKey?: boolean; onChange: (rows: Row[]) => void; verify: (r: Row) => Promise<{ status: boolean }> }) {
  const t = useT();
  const [results, setResults] = useState<Record<number, { ok: boolean; text: string } | 'busy'>>({});
  const set = (i: number, patch: Partial<Row>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const check = async (i: number) => {
    setResults((s) => ({ ...s, [i]: 'busy' }));
    try {
      const res = await verify(rows[i]!);
      setResults((s) => ({ ...s, [i]: res.status ? { ok: true, text: t('admin.verifyOk') } : { ok: false, text: t('admin.verifyFail', { detail: '—' }) } }));
    } catch (err) {
      setResults((s) => ({ ...s, [i]: { ok: false, text: t('admin.verifyFail', { detail: messageOf(err) }) } }));
    }
  };
  if (rows.length === 0) return <p className="muted small">{t('common.none')}</p>;
  return (
    <div className="col">
      {rows.map((r, i) => {
        const result = results[i];
        return (
          <div key={i} className="connection-row" data-testid="connection-row">
            <div className="connection-fields">
              <input className="input" aria-label={`${t('admin.baseUrl')} ${i + 1}`} placeholder={t('admin.baseUrl')} value={r.url} onChange={(e) => set(i, { url: e.target.value })} />
              {withKey && <input className="input" type="password" autoComplete="off" aria-label={`${t('admin.apiKey')} ${i + 1}`} placeholder={t('admin.apiKey')} value={r.key} onChange={(e) => set(i, { key: e.target.value })} />}
            </div>
            <div className="row">
              <Switch label={r.enable ? t('common.enabled') : t('common.disabled')} checked={r.enable} onChange={(v) => set(i, { enable: v })} />
              <div className="grow" />
              <button type="button" className="btn small" onClick={() => void check(i)} disabled={result === 'busy' || !r.url}>
                {result === 'busy' ? <span className="spinner" aria-hidden="true" /> : <Icon name="zap" size={14} />}
                {t('common.verify')}
              </button>
              <button type="button" className="icon-btn small" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`${t('common.remove')} ${r.url}`}>
                <Icon name="trash" size={15} />
              </button>
            </div>
            {result && result !== 'busy' && (
              <div className={`notice ${result.ok ? 'success' : 'error'}`} role="status">
                <Icon name={result.ok ? 'check' : 'alert'} size={16} />
                {result.text}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
