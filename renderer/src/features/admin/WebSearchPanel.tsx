import { useState } from 'react';
import { WEB_SEARCH_ENGINES, type WebSearchEngine, type WebSearchKey } from '../../../../server/contracts/web';
import { webApi, type WebConfigView } from '../../api/web';
import { useSession } from '../../app/session';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { SelectField, Switch, TextArea, TextField } from '../../components/Field';
import { NumberField, numberError } from '../../components/NumberField';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT, type StringKey } from '../../lib/i18n';
import { SaveBar } from './SaveBar';

/** Each engine's name on the page, and the key it needs. */
const ENGINES: Record<WebSearchEngine, { label: StringKey; key?: WebSearchKey }> = {
  searxng: { label: 'admin.web.engineSearxng' },
  brave: { label: 'admin.web.engineBrave', key: 'BRAVE_SEARCH_API_KEY' },
  tavily: { label: 'admin.web.engineTavily', key: 'TAVILY_API_KEY' },
  google_pse: { label: 'admin.web.engineGoogle', key: 'GOOGLE_PSE_API_KEY' },
  kagi: { label: 'admin.web.engineKagi', key: 'KAGI_SEARCH_API_KEY' },
  serper: { label: 'admin.web.engineSerper', key: 'SERPER_API_KEY' },
  exa: { label: 'admin.web.engineExa', key: 'EXA_API_KEY' },
  jina: { label: 'admin.web.engineJina', key: 'JINA_API_KEY' },
  bing: { label: 'admin.web.engineBing', key: 'BING_SEARCH_V7_SUBSCRIPTION_KEY' },
  duckduckgo: { label: 'admin.web.engineDuckduckgo' },
  external: { label: 'admin.web.engineExternal', key: 'EXTERNAL_WEB_SEARCH_API_KEY' },
};

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/** A list edited one entry per line (the text is kept as typed; the list drops empty lines). */
function ListArea({ label, hint, rows, value, onChange }: { label: string; hint: string; rows: number; value: string[]; onChange: (next: string[]) => void }) {
  const [text, setText] = useState(() => value.join('\n'));
  return (
    <TextArea
      label={label}
      hint={hint}
      rows={rows}
      value={text}
      onChange={(ev) => {
        setText(ev.target.value);
        onChange(lines(ev.target.value));
      }}
    />
  );
}

/** Admin → Web search: on/off, the engine (SearXNG recommended) and its key, limits, domains, intranet ranges. */
export function WebSearchPanel() {
  const t = useT();
  const session = useSession();
  const form = useConfigForm<WebConfigView>('web-search', webApi.settings, async (draft) => {
    const saved = await webApi.setSettings(draft);
    // The chat's globe appears or goes with the switch.
    void session.reload();
    return saved;
  });
  const d = form.draft;
  const engine = d ? ENGINES[d.WEB_SEARCH_ENGINE] : undefined;
  const invalid = !!d && (numberError(d.WEB_SEARCH_RESULT_COUNT, 1, 50, true) !== null || numberError(d.WEB_SEARCH_CONCURRENT_REQUESTS, 1, 32, true) !== null);
  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('admin.web.title')}</h2>
      </div>
      <p className="section-desc">{t('admin.web.desc')}</p>
      {form.query.isPending && <Loading />}
      {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
      {d && engine && (
        <div className="col">
          <Switch label={t('admin.web.enable')} checked={d.ENABLE_WEB_SEARCH} onChange={(v) => form.set('ENABLE_WEB_SEARCH', v)} hint={t('admin.web.enableHint')} />
          <div className="form-grid">
            <SelectField label={t('admin.web.engine')} value={d.WEB_SEARCH_ENGINE} onChange={(ev) => form.set('WEB_SEARCH_ENGINE', ev.target.value as WebSearchEngine)} hint={d.WEB_SEARCH_ENGINE === 'searxng' ? t('admin.web.searxngHint') : d.WEB_SEARCH_ENGINE === 'duckduckgo' ? t('admin.web.duckduckgoHint') : t('admin.web.engineHint')}>
              {WEB_SEARCH_ENGINES.map((id) => (
                <option key={id} value={id}>
                  {t(ENGINES[id].label)}
                </option>
              ))}
            </SelectField>
            {d.WEB_SEARCH_ENGINE === 'searxng' && <TextField label={t('admin.web.searxngUrl')} placeholder={t('admin.web.searxngUrlExample')} value={d.SEARXNG_QUERY_URL} onChange={(ev) => form.set('SEARXNG_QUERY_URL', ev.target.value)} />}
            {d.WEB_SEARCH_ENGINE === 'google_pse' && <TextField label={t('admin.web.googleEngineId')} value={d.GOOGLE_PSE_ENGINE_ID} onChange={(ev) => form.set('GOOGLE_PSE_ENGINE_ID', ev.target.value)} />}
            {d.WEB_SEARCH_ENGINE === 'bing' && <TextField label={t('admin.web.bingEndpoint')} value={d.BING_SEARCH_V7_ENDPOINT} onChange={(ev) => form.set('BING_SEARCH_V7_ENDPOINT', ev.target.value)} />}
            {d.WEB_SEARCH_ENGINE === 'external' && <TextField label={t('admin.web.externalUrl')} value={d.EXTERNAL_WEB_SEARCH_URL} onChange={(ev) => form.set('EXTERNAL_WEB_SEARCH_URL', ev.target.value)} hint={t('admin.web.externalHint')} />}
            {engine.key && (
              <TextField label={t('admin.web.apiKey', { name: engine.key })} type="password" autoComplete="off" value={d[engine.key]} onChange={(ev) => form.set(engine.key!, ev.target.value)} hint={t('admin.web.keyHint')} />
            )}
          </div>
          <hr className="divider" />
          <div className="form-grid">
            <NumberField label={t('admin.web.resultCount')} value={d.WEB_SEARCH_RESULT_COUNT} min={1} max={50} onChange={(v) => form.set('WEB_SEARCH_RESULT_COUNT', v)} hint={t('admin.web.resultCountHint')} />
            <NumberField label={t('admin.web.concurrent')} value={d.WEB_SEARCH_CONCURRENT_REQUESTS} min={1} max={32} onChange={(v) => form.set('WEB_SEARCH_CONCURRENT_REQUESTS', v)} />
          </div>
          <Switch label={t('admin.web.bypass')} checked={d.BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL} onChange={(v) => form.set('BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL', v)} hint={t('admin.web.bypassHint')} />
          <ListArea key={`domains-${form.query.dataUpdatedAt}`} label={t('admin.web.domains')} rows={3} value={d.WEB_SEARCH_DOMAIN_FILTER_LIST} onChange={(v) => form.set('WEB_SEARCH_DOMAIN_FILTER_LIST', v)} hint={t('admin.web.domainsHint')} />
          <ListArea key={`networks-${form.query.dataUpdatedAt}`} label={t('admin.web.allowedNetworks')} rows={2} value={d.WEB_FETCH_ALLOWED_NETWORKS} onChange={(v) => form.set('WEB_FETCH_ALLOWED_NETWORKS', v)} hint={t('admin.web.allowedNetworksHint')} />
          <SaveBar onSave={() => void form.submit()} saving={form.saving} dirty={form.dirty && !invalid} error={form.error} />
        </div>
      )}
    </section>
  );
}
