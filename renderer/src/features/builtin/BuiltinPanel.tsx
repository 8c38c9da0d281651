import './builtin.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { builtinApi, type BuiltinConfigResponse, type BuiltinModel } from '../../api/builtin';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { SelectField, Switch, TextField } from '../../components/Field';
import { useT } from '../../lib/i18n';
import { chatWith } from '../../app/chat-link';
import { ItemActions } from '../../components/ResourceList';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { NumberField } from '../../components/NumberField';
import { DownloadProgress } from './DownloadProgress';
import { formatBytes, formatList, formatNumber, formatPercent } from '../../lib/format';
import { RecommendedModelSetup } from './recommended-model-setup';
import { LIBRARY_KEY, useBuiltinModels } from './use-builtin-models';

const CONFIG_KEY = ['builtin', 'config'];

/** Runtime settings: on/off, idle unload, threads, GPU layers, memory budget, context. */
function RuntimeSettings() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const config = useQuery({ queryKey: CONFIG_KEY, queryFn: builtinApi.config, refetchInterval: 5000 });
  const [draft, setDraft] = useState<BuiltinConfigResponse | null>(null);
  useEffect(() => {
    if (config.data && !draft) setDraft(config.data);
  }, [config.data, draft]);
  const save = useMutation({
    mutationFn: (d: BuiltinConfigResponse) =>
      builtinApi.setConfig({ enabled: d.enabled, idle_unload_seconds: d.idle_unload_seconds, threads: d.threads, gpu_layers: d.gpu_layers, memory_budget_mb: d.memory_budget_mb, context_size: d.context_size }),
    onSuccess: (next) => {
      qc.setQueryData(CONFIG_KEY, next);
      setDraft(next);
      void qc.invalidateQueries({ queryKey: ['models'] });
      toast(t('common.saved'));
    },
    onError: (e) => toast(messageOf(e), 'error'),
  });
  if (config.isError) return <ErrorNotice error={config.error} onRetry={() => void config.refetch()} />;
  if (!draft || !config.data) return <Loading />;
  const set = <K extends keyof BuiltinConfigResponse>(key: K, value: BuiltinConfigResponse[K]) => setDraft({ ...draft, [key]: value });
  const runtime = config.data.runtime;
  return (
    <div className="col">
      <Switch label={t('builtin.enabled')} hint={t('builtin.enabledHint')} checked={draft.enabled} onChange={(v) => set('enabled', v)} />
      <div className="form-grid">
        <NumberField label={t('builtin.idleUnload')} value={draft.idle_unload_seconds} min={0} max={86_400} onChange={(v) => set('idle_unload_seconds', v)} />
        <NumberField label={t('builtin.threads')} value={draft.threads} min={0} max={256} onChange={(v) => set('threads', v)} hint={t('builtin.threadsInUse', { count: runtime.threads })} />
        <SelectField label={t('builtin.gpu')} value={draft.gpu_layers === 'auto' ? 'auto' : draft.gpu_layers === 0 ? 'cpu' : 'layers'} onChange={(e) => set('gpu_layers', e.target.value === 'auto' ? 'auto' : e.target.value === 'cpu' ? 0 : 32)}>
          <option value="auto">{t('builtin.gpuAuto')}</option>
          <option value="cpu">{t('builtin.gpuCpu')}</option>
          <option value="layers">{t('builtin.gpuLayersFixed')}</option>
        </SelectField>
        {typeof draft.gpu_layers === 'number' && draft.gpu_layers > 0 && <NumberField label={t('builtin.gpuLayers')} value={draft.gpu_layers} min={0} max={1000} onChange={(v) => set('gpu_layers', v)} />}
        <NumberField label={t('builtin.memoryBudget')} value={draft.memory_budget_mb} min={0} max={1_048_576} onChange={(v) => set('memory_budget_mb', v)} />
        <NumberField label={t('builtin.contextSize')} value={draft.context_size} min={0} max={1_048_576} onChange={(v) => set('context_size', v)} />
      </div>
      <p className="muted small" role="status">
        {t('builtin.runtimeStatus', {
          device: runtime.gpu === null ? t('builtin.notStarted') : runtime.gpu ? t('builtin.onGpu', { name: runtime.gpu }) : t('builtin.onCpu'),
          models: runtime.loaded.length > 0 ? formatList(runtime.loaded) : t('builtin.nothingLoaded'),
        })}
      </p>
      <div>
        <button type="button" className="btn primary" disabled={save.isPending} onClick={() => save.mutate(draft)}>
          {t('common.save')}
        </button>
      </div>
    </div>
  );
}

/** Adds models: a file from this computer, a path on the server, or a URL. */
function AddModel() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [url, setUrl] = useState('');
  const [sha256, setSha256] = useState('');
  const [serverPath, setServerPath] = useState('');
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: LIBRARY_KEY }), [qc]);
  const done = (model: BuiltinModel) => {
    toast(t('builtin.added', { name: model.name }));
    void refresh();
    void qc.invalidateQueries({ queryKey: ['models'] });
  };

  const importFile = async (file: File) => {
    setUploading(0);
    try {
      done(await builtinApi.importFile(file, setUploading));
    } catch (error) {
      toast(messageOf(error), 'error');
    } finally {
      setUploading(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };
  const download = useMutation({
    mutationFn: () => builtinApi.download({ url: url.trim(), ...(sha256.trim() ? { sha256: sha256.trim() } : {}) }),
    onSuccess: () => {
      setUrl('');
      setSha256('');
      void refresh();
    },
    onError: (e) => toast(messageOf(e), 'error'),
  });
  const fromPath = useMutation({
    mutationFn: () => builtinApi.importPath(serverPath.trim()),
    onSuccess: (model) => {
      setServerPath('');
      done(model);
    },
    onError: (e) => toast(messageOf(e), 'error'),
  });

  return (
    <div className="col">
      <div className="row" style={{ flexWrap: 'wrap' }}>
        <input ref={fileInput} type="file" accept=".gguf" hidden aria-label={t('builtin.fileLabel')} onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} />
        <button type="button" className="btn primary" disabled={uploading !== null} onClick={() => fileInput.current?.click()}>
          <Icon name="plus" size={16} />
          {t('builtin.importFile')}
        </button>
        {uploading !== null && (
          <span className="muted small" role="status">
            {uploading < 1 ? t('builtin.uploading', { percent: formatPercent(uploading) }) : t('builtin.checking')}
          </span>
        )}
      </div>
      <form
        className="form-grid"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          if (url.trim()) download.mutate();
        }}
      >
        <TextField label={t('builtin.downloadUrl')} placeholder={t('builtin.downloadUrlPlaceholder')} value={url} onChange={(e) => setUrl(e.target.value)} />
        <TextField label={t('builtin.sha256')} value={sha256} onChange={(e) => setSha256(e.target.value)} />
        <div style={{ alignSelf: 'end' }}>
          <button type="submit" className="btn" disabled={!url.trim() || download.isPending}>
            {t('builtin.download')}
          </button>
        </div>
      </form>
      <form
        className="form-grid"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          if (serverPath.trim()) fromPath.mutate();
        }}
      >
        <TextField label={t('builtin.serverPath')} placeholder={t('builtin.serverPathPlaceholder')} value={serverPath} onChange={(e) => setServerPath(e.target.value)} />
        <div style={{ alignSelf: 'end' }}>
          <button type="submit" className="btn" disabled={!serverPath.trim() || fromPath.isPending}>
            {t('builtin.import')}
          </button>
        </div>
      </form>
    </div>
  );
}

function StatusCell({ model }: { model: BuiltinModel }) {
  const t = useT();
  if (model.status === 'ready') return <span className="badge">{t('builtin.ready')}</span>;
  if (model.status === 'failed') return <span className="danger-text small">{t('builtin.failed', { detail: model.error ?? '' })}</span>;
  return <DownloadProgress model={model} />;
}

/** The library table with per-model actions. */
function Library() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const models = useBuiltinModels();
  const act = useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'pause' | 'resume' | 'cancel' | 'remove' }): Promise<unknown> => builtinApi[action](id),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: LIBRARY_KEY });
      void qc.invalidateQueries({ queryKey: ['models'] });
    },
    onError: (e) => toast(messageOf(e), 'error'),
  });
  if (models.isError) return <ErrorNotice error={models.error} onRetry={() => void models.refetch()} />;
  if (!models.data) return <Loading />;
  if (models.data.length === 0) return <p className="muted">{t('builtin.empty')}</p>;
  return (
    <div className="builtin-table-wrap">
      <table className="table builtin-table cards-on-phone">
        <thead>
          <tr>
            <th>{t('common.name')}</th>
            <th>{t('builtin.kind')}</th>
            <th>{t('builtin.size')}</th>
            <th>{t('builtin.architecture')}</th>
            <th>{t('builtin.context')}</th>
            <th>{t('builtin.quantisation')}</th>
            <th>{t('builtin.ram')}</th>
            <th>{t('builtin.status')}</th>
            <th aria-label={t('common.actions')} />
          </tr>
        </thead>
        <tbody>
          {models.data.map((m) => (
            <tr key={m.id} data-model-id={m.id}>
              <td>
                <div className="col" style={{ gap: 0 }}>
                  <strong>{m.name}</strong>
                  <span className="muted small">{m.id}</span>
                </div>
              </td>
              <td data-label={t('builtin.kind')}>{t(`builtin.kind.${m.kind}`)}</td>
              <td data-label={t('builtin.size')}>{formatBytes(m.size)}</td>
              <td data-label={t('builtin.architecture')}>{m.architecture ?? '—'}</td>
              <td data-label={t('builtin.context')}>{formatNumber(m.context_length)}</td>
              <td data-label={t('builtin.quantisation')}>{m.quantization ?? '—'}</td>
              <td data-label={t('builtin.ram')}>{formatBytes(m.ram_estimate)}</td>
              <td>
                <StatusCell model={m} />
              </td>
              <td className="actions-cell">
                <div className="row" style={{ gap: 4, justifyContent: 'flex-end' }}>
                  {m.status === 'downloading' && (
                    <button type="button" className="btn small" onClick={() => act.mutate({ id: m.id, action: 'pause' })}>
                      {t('builtin.pause')}
                    </button>
                  )}
                  {(m.status === 'paused' || (m.status === 'failed' && m.source_url)) && (
                    <button type="button" className="btn small" onClick={() => act.mutate({ id: m.id, action: 'resume' })}>
                      {t('builtin.resume')}
                    </button>
                  )}
                  {m.status !== 'ready' && m.status !== 'failed' ? (
                    <button type="button" className="btn small" onClick={() => act.mutate({ id: m.id, action: 'cancel' })}>
                      {t('common.cancel')}
                    </button>
                  ) : (
                    <ItemActions name={m.name} onDelete={() => act.mutate({ id: m.id, action: 'remove' })} confirmDelete={t('builtin.deleteConfirm', { name: m.name, size: formatBytes(m.size) })} />
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Admin → Local models: the built-in model library and runtime settings. */
export function BuiltinPanel() {
  const t = useT();
  const toast = useToast();
  const navigate = useNavigate();
  const [online, setOnline] = useState(typeof navigator === 'undefined' || navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return (
    <div className="col" style={{ gap: 16 }}>
      <section className="card">
        <div className="card-title">
          <h2>{t('builtin.title')}</h2>
        </div>
        <p className="section-desc">
          {t('builtin.intro')}
        </p>
        <AddModel />
      </section>
      <section className="card">
        <div className="card-title">
          <h2>{t('builtin.library')}</h2>
        </div>
        <Library />
      </section>
      {online && (
        <section className="card">
          <div className="card-title">
            <h2>{t('builtin.recommended')}</h2>
          </div>
          <p className="section-desc">{t('builtin.recommendedIntro')}</p>
          <RecommendedModelSetup onDone={() => toast(t('builtin.modelReady'))} onChat={(id) => navigate(chatWith(id))} />
        </section>
      )}
      <section className="card">
        <div className="card-title">
          <h2>{t('builtin.runtime')}</h2>
        </div>
        <RuntimeSettings />
      </section>
    </div>
  );
}
