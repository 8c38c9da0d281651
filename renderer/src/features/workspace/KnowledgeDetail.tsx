import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { chatsApi } from '../../api/chats';
import { knowledgeApi, type KnowledgeFile, type KnowledgeFileEvent } from '../../api/knowledge';
import { useConfirm } from '../../components/Confirm';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Switch } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { onLiveEvent } from '../../hooks/use-realtime';
import { formatPercent } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { FilePreview } from './FilePreview';
import { KnowledgeSettings } from './KnowledgeSettings';
import { ReindexProgress } from './ReindexProgress';

interface Pending {
  key: string;
  name: string;
  progress: number;
  error?: string;
}

const DONE = new Set(['completed', 'failed']);

/** One knowledge base: files with status and progress, upload, remove, export, and the graph. */
export function KnowledgeDetail() {
  const t = useT();
  const { id = '' } = useParams();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending[]>([]);
  const [over, setOver] = useState(false);
  const [showGraph, setShowGraph] = useState(false);
  const [editing, setEditing] = useState(false);
  const [previewing, setPreviewing] = useState<KnowledgeFile | null>(null);
  /** The switch position while a toggle request runs (it follows the click at once). */
  const [graphWanted, setGraphWanted] = useState<boolean | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const kb = useQuery({
    queryKey: ['knowledge', id],
    queryFn: () => knowledgeApi.get(id),
    // Poll while files are still being processed, and faster while a language change re-indexes.
    refetchInterval: (q) => (q.state.data?.reindexing != null ? 500 : (q.state.data?.files ?? []).some((f) => !DONE.has(f.status)) ? 1500 : false),
  });
  const graph = useQuery({ queryKey: ['knowledge', id, 'graph'], queryFn: () => knowledgeApi.graphStatus(id), refetchInterval: (q) => (q.state.data?.status === 'building' ? 1000 : false), retry: false });

  // Live ingestion progress pushed by the service (polling above is the fallback).
  const [progress, setProgress] = useState<Record<string, number>>({});
  useEffect(
    () =>
      onLiveEvent('knowledge:file', (payload) => {
        const e = payload as KnowledgeFileEvent;
        if (e.knowledge_id !== null && e.knowledge_id !== id) return;
        setProgress((p) => ({ ...p, [e.file_id]: e.progress }));
        if (DONE.has(e.status)) void qc.invalidateQueries({ queryKey: ['knowledge', id] });
      }),
    [id, qc],
  );
  useEffect(() => onLiveEvent('knowledge:graph', () => void qc.invalidateQueries({ queryKey: ['knowledge', id, 'graph'] })), [id, qc]);

  /**
   * Re-reads the base at most once a second while files are being added: thousands of files
   * dropped at once would otherwise re-read the whole (growing) file list once per file.
   */
  const refreshing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refreshSoon = () => {
    if (refreshing.current) return;
    refreshing.current = setTimeout(() => {
      refreshing.current = null;
      void qc.invalidateQueries({ queryKey: ['knowledge'] });
    }, 1000);
  };
  useEffect(() => () => void (refreshing.current && clearTimeout(refreshing.current)), []);

  const upload = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${Math.random()}`;
      setPending((p) => [...p, { key, name: file.name, progress: 0 }]);
      const set = (patch: Partial<Pending>) => setPending((p) => p.map((x) => (x.key === key ? { ...x, ...patch } : x)));
      chatsApi
        .upload(file, (progress) => set({ progress }))
        .then(async (res) => {
          const saved = Array.isArray(res) ? res[0] : undefined;
          if (!saved) throw new Error(t('chat.uploadNoFile'));
          // The answer is the base with its file list: shown at once; a re-read follows soon
          // (answers of parallel adds may arrive out of order).
          qc.setQueryData(['knowledge', id], await knowledgeApi.addFile(id, saved.id));
          setPending((p) => p.filter((x) => x.key !== key));
          refreshSoon();
        })
        .catch((err: unknown) => set({ error: messageOf(err) }));
    }
  };

  const removeFile = async (f: KnowledgeFile) => {
    try {
      await knowledgeApi.removeFile(id, f.id);
      await qc.invalidateQueries({ queryKey: ['knowledge'] });
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  if (kb.isPending) return <Loading />;
  if (kb.isError) return <ErrorNotice error={kb.error} onRetry={() => void kb.refetch()} />;
  const base = kb.data;
  const graphOn = graph.data ? graph.data.status !== 'disabled' : false;

  return (
    <div className="col">
      <div className="row wrap">
        <Link to="/workspace/knowledge" className="btn ghost small">
          <Icon name="chevronLeft" size={14} />
          {t('common.back')}
        </Link>
        <div className="grow" />
        <button type="button" className="btn small" onClick={() => setEditing(true)}>
          <Icon name="pencil" size={14} />
          {t('common.edit')}
        </button>
        <button type="button" className="btn small" onClick={() => void knowledgeApi.export(id, base.name).catch((e: unknown) => toast(messageOf(e), 'error'))}>
          <Icon name="download" size={14} />
          {t('workspace.export')}
        </button>
        <button
          type="button"
          className="btn small danger"
          onClick={async () => {
            if (!(await confirm(t('workspace.deleteKnowledgeConfirm', { name: base.name }), { action: t('common.delete') }))) return;
            try {
              await knowledgeApi.remove(id);
              await qc.invalidateQueries({ queryKey: ['knowledge'] });
              navigate('/workspace/knowledge');
            } catch (err) {
              toast(messageOf(err), 'error');
            }
          }}
        >
          <Icon name="trash" size={14} />
          {t('common.delete')}
        </button>
      </div>
      <section className="card col">
        <div>
          <h2 style={{ marginBottom: 2 }}>{base.name}</h2>
          <p className="muted small" style={{ margin: 0 }}>
            {base.description}
          </p>
        </div>
        <ReindexProgress base={base} />
        <div
          className={`dropzone${over ? ' over' : ''}`}
          role="button"
          tabIndex={0}
          onClick={() => input.current?.click()}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
          onDragOver={(e) => (e.preventDefault(), setOver(true))}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            upload(e.dataTransfer.files);
          }}
        >
          <Icon name="upload" size={22} />
          <div>{t('workspace.dropDocuments')}</div>
          <input ref={input} type="file" multiple hidden onChange={(e) => (e.target.files && upload(e.target.files), (e.target.value = ''))} data-testid="knowledge-file-input" />
        </div>
        <div className="list">
          {pending.map((p) => (
            <div key={p.key} className="list-item file-row">
              <Icon name={p.error ? 'alert' : 'upload'} size={16} />
              <span className="truncate">{p.name}</span>
              {p.error ? (
                <span className="badge danger" title={p.error}>
                  {t('workspace.fileFailed', { reason: p.error })}
                </span>
              ) : (
                <div className="progress" role="progressbar" aria-label={p.name} aria-valuenow={Math.round(p.progress * 100)} aria-valuemin={0} aria-valuemax={100}>
                  <span style={{ width: `${p.progress * 100}%` }} />
                </div>
              )}
              <button type="button" className="icon-btn small" onClick={() => setPending((list) => list.filter((x) => x.key !== p.key))} aria-label={t('common.removeNamed', { name: p.name })}>
                <Icon name="x" size={14} />
              </button>
            </div>
          ))}
          {(base.files ?? []).map((f) => (
            <div key={f.id} className="list-item file-row" data-testid="knowledge-file">
              <Icon name="file" size={16} />
              <button type="button" className="link-btn truncate" onClick={() => setPreviewing(f)} aria-label={t('knowledge.preview', { name: f.name })} title={t('knowledge.preview', { name: f.name })}>
                {f.name}
              </button>
              <FileStatus file={f} progress={progress[f.id]} />
              <button type="button" className="icon-btn small" onClick={() => void removeFile(f)} aria-label={t('common.removeNamed', { name: f.name })}>
                <Icon name="trash" size={14} />
              </button>
            </div>
          ))}
          {pending.length === 0 && (base.files ?? []).length === 0 && <div className="list-item muted small">{t('workspace.files', { count: 0 })}</div>}
        </div>
      </section>
      <section className="card col">
        <div className="row wrap">
          <div className="grow">
            <h3 style={{ marginBottom: 2 }}>{t('workspace.graph')}</h3>
            <p className="muted small" style={{ margin: 0 }}>
              {t('workspace.graphDesc')}
            </p>
          </div>
          <Switch
            label={(graphWanted ?? graphOn) ? t('common.enabled') : t('common.disabled')}
            checked={graphWanted ?? graphOn}
            disabled={graphWanted !== null}
            onChange={async (v) => {
              setGraphWanted(v);
              try {
                const res = await knowledgeApi.toggleGraph(id, v);
                toast(res.message || res.status);
                await qc.invalidateQueries({ queryKey: ['knowledge', id] });
              } catch (err) {
                toast(messageOf(err), 'error');
              } finally {
                setGraphWanted(null);
              }
            }}
          />
        </div>
        {graph.data && graph.data.status !== 'disabled' && (
          <div className="col" style={{ gap: 4 }} data-testid="graph-status">
            <div className="small muted" role="status">
              {t(`workspace.graphStatus.${graph.data.status}`)} · {formatPercent(graph.data.progress / 100)} · {t('workspace.graphCounts', { entities: graph.data.entities, relations: graph.data.relations })}
            </div>
            {graph.data.status === 'building' && (
              <div className="progress" role="progressbar" aria-label={t('workspace.graph')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(graph.data.progress)}>
                <span style={{ width: `${graph.data.progress}%` }} />
              </div>
            )}
            {graph.data.status === 'failed' && graph.data.error && (
              <div className="notice error" role="alert">
                {graph.data.error}
              </div>
            )}
          </div>
        )}
        {graphOn && (
          <div>
            <button type="button" className="btn small" onClick={() => setShowGraph((s) => !s)}>
              <Icon name="graph" size={14} />
              {t('workspace.graphView')}
            </button>
          </div>
        )}
        {editing && <KnowledgeSettings base={base} onClose={() => setEditing(false)} />}
        {previewing && <FilePreview knowledgeId={id} fileId={previewing.id} name={previewing.name} onClose={() => setPreviewing(null)} />}
        {showGraph && <iframe className="graph-frame" title={t('workspace.graph')} src={knowledgeApi.graphUrl(id)} sandbox="allow-scripts" />}
      </section>
    </div>
  );
}

function FileStatus({ file, progress }: { file: KnowledgeFile; progress?: number }) {
  const t = useT();
  if (file.status === 'completed') return <span className="badge success">{t('workspace.fileStatus.completed')}</span>;
  if (file.status === 'failed')
    return (
      <span className="badge danger" title={file.error ?? ''}>
        {t('workspace.fileFailed', { reason: file.error ?? t('workspace.fileStatus.failed') })}
      </span>
    );
  return (
    <span className="badge warning">
      <span className="spinner" aria-hidden="true" style={{ width: 10, height: 10, borderWidth: 2 }} />
      {t(`workspace.fileStatus.${file.status}`)}
      {typeof progress === 'number' ? ` ${formatPercent(progress)}` : ''}
    </span>
  );
}
