import { useState } from 'react';
import type { ProviderEntryConfig } from '../../../../server/contracts/providers';
import { connectionsApi, type CompatSettings, type ConnectionFlags, type LocalSettings, type VerifyResponse } from '../../api/connections';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Switch, TextArea, TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { SaveBar } from './SaveBar';

/** One provider URL as the form edits it; `config` keeps the keys the form does not show. */
interface Row {
  url: string;
  key: string;
  enable: boolean;
  name: string;
  prefix_id: string;
  /** Allow-list, one id per line or comma separated. */
  model_ids: string;
  /** Comma separated. */
  tags: string;
  config: ProviderEntryConfig;
}

const list = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
const tagName = (tag: unknown) => (typeof tag === 'string' ? tag : typeof (tag as { name?: unknown })?.name === 'string' ? (tag as { name: string }).name : '');

function toRow(url: string, key: string, config: ProviderEntryConfig = {}): Row {
  return { url, key, enable: config.enable !== false, name: config.name ?? '', prefix_id: config.prefix_id ?? '', model_ids: (config.model_ids ?? []).join('\n'), tags: (config.tags ?? []).map(tagName).filter(Boolean).join(', '), config };
}

/** The entry config of a row: what the form shows, over what it keeps. */
function toConfig(row: Row, withKey: boolean): ProviderEntryConfig {
  const { key: _key, prefix_id: _prefix, name: _name, ...kept } = row.config;
  const prefix = row.prefix_id.trim();
  const name = row.name.trim();
  return { ...kept, enable: row.enable, ...(name ? { name } : {}), ...(prefix ? { prefix_id: prefix } : {}), model_ids: list(row.model_ids), tags: list(row.tags).map((name) => ({ name })), ...(withKey && row.key ? { key: row.key } : {}) };
}

/**
 * Provider connections: OpenAI-compatible and local servers with every field of their entry
 * (URL, key, prefix id, model allow-list, tags, on/off), a Verify that says how many models it
 * found or why it failed, and one Save for the whole page.
 */
export function ConnectionsPanel() {
  const t = useT();
  const compat = useConfigForm<CompatSettings>('compat', connectionsApi.compat, connectionsApi.setCompat);
  const local = useConfigForm<LocalSettings>('local', connectionsApi.local, connectionsApi.setLocal);
  const flags = useConfigForm<ConnectionFlags>('connection-flags', connectionsApi.flags, connectionsApi.setFlags);

  const compatRows: Row[] = (compat.draft?.COMPAT_API_BASE_URLS ?? []).map((url, i) => toRow(url, compat.draft?.COMPAT_API_KEYS[i] ?? '', compat.draft?.COMPAT_API_CONFIGS[String(i)]));
  const localRows: Row[] = (local.draft?.LOCAL_BASE_URLS ?? []).map((url, i) => {
    const config = local.draft?.LOCAL_API_CONFIGS[String(i)];
    return toRow(url, config?.key ?? '', config);
  });

  const setCompatRows = (rows: Row[]) =>
    compat.setDraft((d) => d && { ...d, COMPAT_API_BASE_URLS: rows.map((r) => r.url), COMPAT_API_KEYS: rows.map((r) => r.key), COMPAT_API_CONFIGS: Object.fromEntries(rows.map((r, i) => [String(i), toConfig(r, false)])) });
  const setLocalRows = (rows: Row[]) => local.setDraft((d) => d && { ...d, LOCAL_BASE_URLS: rows.map((r) => r.url), LOCAL_API_CONFIGS: Object.fromEntries(rows.map((r, i) => [String(i), toConfig(r, true)])) });

  const forms = [compat, local, flags];
  const saveAll = async () => {
    for (const form of forms) if (form.dirty) await form.submit();
  };

  return (
    <>
      <p className="section-desc" style={{ marginTop: 0 }}>
        {t('admin.connectionsDesc')}
      </p>
      <section className="card">
        <div className="card-title">
          <h2>{t('admin.compat')}</h2>
          <button type="button" className="btn small" onClick={() => setCompatRows([...compatRows, toRow('https://api.openai.com/v1', '')])} disabled={!compat.draft}>
            <Icon name="plus" size={14} />
            {t('admin.addConnection')}
          </button>
        </div>
        {compat.query.isPending && <Loading />}
        {compat.query.isError && <ErrorNotice error={compat.query.error} onRetry={() => void compat.query.refetch()} />}
        {compat.draft && <Rows name="compat" rows={compatRows} onChange={setCompatRows} verify={(r) => connectionsApi.verifyCompat(r.url, r.key)} />}
      </section>
      <section className="card">
        <div className="card-title">
          <h2>{t('admin.local')}</h2>
          <button type="button" className="btn small" onClick={() => setLocalRows([...localRows, toRow('http://127.0.0.1:11434', '')])} disabled={!local.draft}>
            <Icon name="plus" size={14} />
            {t('admin.addConnection')}
          </button>
        </div>
        {local.query.isPending && <Loading />}
        {local.query.isError && <ErrorNotice error={local.query.error} onRetry={() => void local.query.refetch()} />}
        {local.draft && <Rows name="local" rows={localRows} onChange={setLocalRows} verify={(r) => connectionsApi.verifyLocal(r.url, r.key)} />}
      </section>
      <section className="card">
        {flags.query.isError && <ErrorNotice error={flags.query.error} />}
        {flags.draft && (
          <div className="col">
            <Switch label={t('admin.directConnections')} checked={flags.draft.ENABLE_DIRECT_CONNECTIONS} onChange={(v) => flags.set('ENABLE_DIRECT_CONNECTIONS', v)} />
            <Switch label={t('admin.modelsCache')} checked={flags.draft.ENABLE_BASE_MODELS_CACHE} onChange={(v) => flags.set('ENABLE_BASE_MODELS_CACHE', v)} />
          </div>
        )}
      </section>
      <SaveBar onSave={() => void saveAll()} saving={forms.some((f) => f.saving)} dirty={forms.some((f) => f.dirty)} error={forms.map((f) => f.error).find(Boolean) ?? null} />
    </>
  );
}

function Rows({ name, rows, onChange, verify }: { name: string; rows: Row[]; onChange: (rows: Row[]) => void; verify: (r: Row) => Promise<VerifyResponse> }) {
  const t = useT();
  const [results, setResults] = useState<Record<number, { ok: boolean; text: string } | 'busy'>>({});
  const set = (i: number, patch: Partial<Row>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const check = async (i: number) => {
    setResults((s) => ({ ...s, [i]: 'busy' }));
    try {
      const res = await verify(rows[i]!);
      const ok = res.status ? { ok: true, text: res.model_count === undefined ? t('admin.verifyOk') : t('admin.modelsFound', { count: res.model_count }) } : undefined;
      setResults((s) => ({ ...s, [i]: ok ?? { ok: false, text: t('admin.verifyFail', { detail: res.detail ?? t('admin.verifyNoReason') }) } }));
    } catch (err) {
      setResults((s) => ({ ...s, [i]: { ok: false, text: t('admin.verifyFail', { detail: messageOf(err) }) } }));
    }
  };
  if (rows.length === 0) return <p className="muted small">{t('common.none')}</p>;
  return (
    <div className="col">
      {rows.map((r, i) => {
        const result = results[i];
        const n = i + 1;
        return (
          <fieldset key={i} className="connection-row" data-testid="connection-row">
            <legend className="sr-only">{t('common.numbered', { label: t('admin.connection'), n })}</legend>
            <div className="connection-fields">
              <TextField label={t('common.numbered', { label: t('admin.connectionName'), n })} hint={t('admin.connectionNameHint')} value={r.name} onChange={(e) => set(i, { name: e.target.value })} id={`${name}-name-${i}`} maxLength={100} />
              <TextField label={t('common.numbered', { label: t('admin.baseUrl'), n })} value={r.url} onChange={(e) => set(i, { url: e.target.value })} id={`${name}-url-${i}`} />
              <TextField label={t('common.numbered', { label: t('admin.apiKey'), n })} type="password" autoComplete="off" value={r.key} onChange={(e) => set(i, { key: e.target.value })} id={`${name}-key-${i}`} />
              <TextField label={t('common.numbered', { label: t('admin.prefixId'), n })} hint={t('admin.prefixIdHint')} value={r.prefix_id} onChange={(e) => set(i, { prefix_id: e.target.value })} id={`${name}-prefix-${i}`} />
              <TextField label={t('common.numbered', { label: t('admin.connectionTags'), n })} hint={t('admin.tagsHint')} value={r.tags} onChange={(e) => set(i, { tags: e.target.value })} id={`${name}-tags-${i}`} />
            </div>
            <TextArea label={t('common.numbered', { label: t('admin.modelAllowList'), n })} hint={t('admin.modelAllowListHint')} rows={2} value={r.model_ids} onChange={(e) => set(i, { model_ids: e.target.value })} id={`${name}-models-${i}`} />
            <div className="row wrap">
              <Switch label={r.enable ? t('common.enabled') : t('common.disabled')} checked={r.enable} onChange={(v) => set(i, { enable: v })} />
              <div className="grow" />
              <button type="button" className="btn small" onClick={() => void check(i)} disabled={result === 'busy' || !r.url}>
                {result === 'busy' ? <span className="spinner" aria-hidden="true" /> : <Icon name="zap" size={14} />}
                {t('common.verify')}
              </button>
              <button type="button" className="icon-btn small" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={t('admin.removeConnection', { url: r.url })}>
                <Icon name="trash" size={15} />
              </button>
            </div>
            {result && result !== 'busy' && (
              <div className={`notice ${result.ok ? 'success' : 'error'}`} role="status">
                <Icon name={result.ok ? 'check' : 'alert'} size={16} />
                {result.text}
              </div>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}
