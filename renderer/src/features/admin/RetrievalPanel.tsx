import { settingsApi, type EmbeddingConfig, type RetrievalConfig } from '../../api/settings';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { SelectField, Switch, TextField } from '../../components/Field';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { NumberField, numberError } from '../../components/NumberField';
import { useBuiltinModels } from '../builtin/use-builtin-models';
import { SaveBar } from './SaveBar';

type NumKey = 'CHUNK_SIZE' | 'CHUNK_OVERLAP' | 'PARENT_CHUNK_SIZE' | 'PARENT_CHUNK_OVERLAP' | 'CHILD_CHUNK_SIZE' | 'CHILD_CHUNK_OVERLAP' | 'HTML_CHUNK_SIZE' | 'HTML_MIN_CHUNK_SIZE' | 'HTML_CHUNK_OVERLAP' | 'HTML_CONTEXT_WINDOW' | 'TOP_K' | 'TOP_K_RERANKER';

const BIG = 1_000_000;

/** The built-in library's reranker models to choose from (Admin → Local models adds them). */
function LocalRerankerField({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const t = useT();
  const models = useBuiltinModels();
  const rerankers = (models.data ?? []).filter((m) => m.kind === 'reranker' && m.status === 'ready');
  if (models.isSuccess && rerankers.length === 0) return <p className="muted small">{t('admin.rag.rerankerNoModel')}</p>;
  return (
    <SelectField label={t('admin.rag.rerankerModel')} value={value} onChange={(ev) => onChange(ev.target.value)}>
      <option value="">{t('admin.rag.rerankerChoose')}</option>
      {rerankers.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
        </option>
      ))}
    </SelectField>
  );
}

/** Chunking, hybrid search and ranking settings, and the embedding model. */
export function RetrievalPanel() {
  const t = useT();
  const form = useConfigForm<RetrievalConfig>('retrieval', settingsApi.retrieval, settingsApi.setRetrieval);
  const emb = useConfigForm<EmbeddingConfig>('embedding', settingsApi.embedding, settingsApi.setEmbedding);
  const d = form.draft;
  const num = (key: NumKey, label: string, min = 0, max = BIG) => d && <NumberField key={key} label={label} value={d[key]} min={min} max={max} onChange={(v) => form.set(key, v)} />;
  const invalid =
    !!d &&
    ((d.TOP_K !== undefined && numberError(d.TOP_K, 1, 1000, true) !== null) ||
      (d.RELEVANCE_THRESHOLD !== undefined && numberError(d.RELEVANCE_THRESHOLD, 0, 1, false) !== null) ||
      (d.HYBRID_BM25_WEIGHT !== undefined && numberError(d.HYBRID_BM25_WEIGHT, 0, 1, false) !== null) ||
      (['CHUNK_SIZE', 'CHUNK_OVERLAP', 'TOP_K_RERANKER'] as const).some((k) => d[k] !== undefined && numberError(d[k], 0, BIG, true) !== null));
  const e = emb.draft;
  return (
    <>
      <section className="card">
        <div className="card-title">
          <h2>{t('admin.retrieval')}</h2>
        </div>
        <p className="section-desc">{t('admin.retrievalDesc')}</p>
        {form.query.isPending && <Loading />}
        {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
        {d && (
          <div className="col">
            <Switch label={t('admin.rag.hybrid')} checked={d.ENABLE_RAG_HYBRID_SEARCH !== false} onChange={(v) => form.set('ENABLE_RAG_HYBRID_SEARCH', v)} />
            <div className="form-grid">
              <NumberField label={t('admin.rag.topK')} value={d.TOP_K} min={1} max={1000} onChange={(v) => form.set('TOP_K', v)} />
              {num('TOP_K_RERANKER', t('admin.rag.topKReranker'))}
              <NumberField label={t('admin.rag.threshold')} value={d.RELEVANCE_THRESHOLD} min={0} max={1} integer={false} onChange={(v) => form.set('RELEVANCE_THRESHOLD', v)} hint="0 – 1" />
              <NumberField label={t('admin.rag.bm25Weight')} value={d.HYBRID_BM25_WEIGHT} min={0} max={1} integer={false} onChange={(v) => form.set('HYBRID_BM25_WEIGHT', v)} hint={t('admin.rag.bm25WeightHint')} />
            </div>
            <hr className="divider" />
            <div className="form-grid">
              <SelectField label={t('admin.rag.strategy')} value={d.CHUNKING_STRATEGY ?? 'A'} onChange={(ev) => form.set('CHUNKING_STRATEGY', ev.target.value as RetrievalConfig['CHUNKING_STRATEGY'])}>
                <option value="A">{t('admin.rag.strategyA')}</option>
                <option value="E">{t('admin.rag.strategyE')}</option>
                <option value="H">{t('admin.rag.strategyH')}</option>
              </SelectField>
              {(d.CHUNKING_STRATEGY ?? 'A') === 'A' && (
                <SelectField label={t('admin.rag.splitter')} value={d.TEXT_SPLITTER ?? 'character'} onChange={(ev) => form.set('TEXT_SPLITTER', ev.target.value as RetrievalConfig['TEXT_SPLITTER'])}>
                  <option value="character">{t('admin.rag.splitterCharacter')}</option>
                  <option value="token">{t('admin.rag.splitterToken')}</option>
                </SelectField>
              )}
              {(d.CHUNKING_STRATEGY ?? 'A') === 'A' && [num('CHUNK_SIZE', t('admin.rag.chunkSize'), 1), num('CHUNK_OVERLAP', t('admin.rag.chunkOverlap'))]}
              {d.CHUNKING_STRATEGY === 'E' && [num('PARENT_CHUNK_SIZE', t('admin.rag.parentSize'), 1), num('PARENT_CHUNK_OVERLAP', t('admin.rag.parentOverlap')), num('CHILD_CHUNK_SIZE', t('admin.rag.childSize'), 1), num('CHILD_CHUNK_OVERLAP', t('admin.rag.childOverlap'))]}
              {d.CHUNKING_STRATEGY === 'H' && [num('HTML_CHUNK_SIZE', t('admin.rag.htmlMax'), 1), num('HTML_MIN_CHUNK_SIZE', t('admin.rag.htmlMin')), num('HTML_CHUNK_OVERLAP', t('admin.rag.htmlOverlap')), num('HTML_CONTEXT_WINDOW', t('admin.rag.htmlContext'))]}
            </div>
            <hr className="divider" />
            <div className="form-grid">
              <SelectField label={t('admin.rag.extraction')} value={d.CONTENT_EXTRACTION_ENGINE ?? ''} onChange={(ev) => form.set('CONTENT_EXTRACTION_ENGINE', ev.target.value as RetrievalConfig['CONTENT_EXTRACTION_ENGINE'])}>
                <option value="">{t('admin.rag.extractionBuiltin')}</option>
                <option value="external">{t('admin.rag.extractionExternal')}</option>
              </SelectField>
              {d.CONTENT_EXTRACTION_ENGINE === 'external' && <TextField label={t('admin.rag.loaderUrl')} value={d.EXTERNAL_DOCUMENT_LOADER_URL ?? ''} onChange={(ev) => form.set('EXTERNAL_DOCUMENT_LOADER_URL', ev.target.value)} />}
              <SelectField label={t('admin.rag.reranking')} value={d.RAG_RERANKING_ENGINE ?? ''} onChange={(ev) => form.set('RAG_RERANKING_ENGINE', ev.target.value as RetrievalConfig['RAG_RERANKING_ENGINE'])}>
                <option value="">{t('admin.rag.rerankingOff')}</option>
                <option value="external">{t('admin.rag.rerankingExternal')}</option>
                <option value="builtin">{t('admin.rag.rerankingBuiltin')}</option>
              </SelectField>
              {d.RAG_RERANKING_ENGINE === 'builtin' ? (
                <LocalRerankerField value={d.RAG_RERANKING_MODEL ?? ''} onChange={(id) => form.set('RAG_RERANKING_MODEL', id)} />
              ) : (
                <>
                  <TextField label={t('admin.rag.rerankerUrl')} value={d.RAG_EXTERNAL_RERANKER_URL ?? ''} onChange={(ev) => form.set('RAG_EXTERNAL_RERANKER_URL', ev.target.value)} />
                  <TextField label={t('admin.rag.rerankingModel')} value={d.RAG_RERANKING_MODEL ?? ''} onChange={(ev) => form.set('RAG_RERANKING_MODEL', ev.target.value)} />
                </>
              )}
            </div>
            <Switch label={t('admin.rag.chunkingServer')} checked={d.ENABLE_CHUNKING_SERVER === true} onChange={(v) => form.set('ENABLE_CHUNKING_SERVER', v)} />
            {d.ENABLE_CHUNKING_SERVER && <TextField label={t('admin.rag.chunkingServerUrl')} value={d.CHUNKING_SERVER_URL ?? ''} onChange={(ev) => form.set('CHUNKING_SERVER_URL', ev.target.value)} />}
            <SaveBar onSave={() => void form.submit()} saving={form.saving} dirty={form.dirty && !invalid} error={form.error} />
          </div>
        )}
      </section>
      <section className="card">
        <div className="card-title">
          <h2>{t('admin.embedding')}</h2>
        </div>
        <p className="section-desc">{t('admin.embeddingDesc')}</p>
        {emb.query.isPending && <Loading />}
        {emb.query.isError && <ErrorNotice error={emb.query.error} onRetry={() => void emb.query.refetch()} />}
        {e && (
          <div className="col">
            <div className="form-grid">
              <SelectField label={t('admin.embedding.engine')} value={e.embedding_engine} onChange={(ev) => emb.set('embedding_engine', ev.target.value as EmbeddingConfig['embedding_engine'])}>
                <option value="">{t('admin.embedding.engineBuiltin')}</option>
                <option value="compat">{t('admin.embedding.engineCompat')}</option>
                <option value="local">{t('admin.embedding.engineLocal')}</option>
                <option value="builtin">{t('admin.embedding.engineGguf')}</option>
              </SelectField>
              <TextField label={t('admin.embedding.model')} value={e.embedding_model} onChange={(ev) => emb.set('embedding_model', ev.target.value)} />
              <NumberField label={t('admin.embedding.batchSize')} value={e.embedding_batch_size} min={1} max={10_000} onChange={(v) => emb.set('embedding_batch_size', v)} />
            </div>
            {e.embedding_engine === 'compat' && (
              <div className="form-grid">
                <TextField label={t('admin.embedding.url')} value={e.compat_config?.url ?? ''} onChange={(ev) => emb.set('compat_config', { ...e.compat_config, url: ev.target.value })} />
                <TextField label={t('admin.embedding.key')} type="password" autoComplete="off" value={e.compat_config?.key ?? ''} onChange={(ev) => emb.set('compat_config', { ...e.compat_config, key: ev.target.value })} />
              </div>
            )}
            {e.embedding_engine === 'local' && (
              <div className="form-grid">
                <TextField label={t('admin.embedding.url')} value={e.local_config?.url ?? ''} onChange={(ev) => emb.set('local_config', { ...e.local_config, url: ev.target.value })} />
                <TextField label={t('admin.embedding.key')} type="password" autoComplete="off" value={e.local_config?.key ?? ''} onChange={(ev) => emb.set('local_config', { ...e.local_config, key: ev.target.value })} />
              </div>
            )}
            {e.reembedding && e.reembedding.status !== 'idle' && (
              <div className="col" style={{ gap: 4 }} role="status">
                <span className={`small ${e.reembedding.status === 'failed' ? 'danger-text' : 'muted'}`}>
                  {t('admin.embedding.progress', { done: e.reembedding.done, total: e.reembedding.total })} {e.reembedding.error ?? ''}
                </span>
                <div className="progress">
                  <span style={{ width: `${e.reembedding.total ? (100 * e.reembedding.done) / e.reembedding.total : 0}%` }} />
                </div>
              </div>
            )}
            <SaveBar onSave={() => void emb.submit()} saving={emb.saving} dirty={emb.dirty && numberError(e.embedding_batch_size, 1, 10_000, true) === null} error={emb.error} />
          </div>
        )}
      </section>
    </>
  );
}
