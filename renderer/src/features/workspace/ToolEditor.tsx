import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { toolsApi, type ToolType } from '../../api/tools';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { useT } from '../../lib/i18n';

const CodeEditor = lazy(() => import('./CodeEditor'));

/** The Python type name the service uses for inline tools. */
export const PYTHON_TOOL_TYPE = 'python';

const TEMPLATE = `"""
title: Example tool
description: What this tool does, for the model.
"""


class Tools:
    def get_current_time(self) -> str:
        """Get the current date and time."""
        from datetime import datetime

        return datetime.now().isoformat()
`;

/** Quick checks before the service validates the code for real. */
function localProblems(code: string, t: (key: 'workspace.codeEmpty' | 'workspace.codeMixedIndent') => string): string[] {
  const out: string[] = [];
  if (!code.trim()) out.push(t('workspace.codeEmpty'));
  if (/\t/.test(code) && / {4}/.test(code)) out.push(t('workspace.codeMixedIndent'));
  return out;
}

/** Creates or edits a Python tool (CodeMirror) or an OpenAPI tool, showing the service's validation messages. */
export function ToolEditor() {
  const t = useT();
  const { id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const existing = useQuery({ queryKey: ['tools', id], queryFn: () => toolsApi.get(id!), enabled: !!id });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState(params.get('type') === 'openapi' ? 'openapi' : PYTHON_TOOL_TYPE);
  const [code, setCode] = useState(TEMPLATE);
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const tool = existing.data;
    if (!tool) return;
    setName(tool.name);
    setDescription(tool.description ?? '');
    setType(tool.type);
    const c = tool.config ?? {};
    if (typeof c.content === 'string') setCode(c.content);
    else if (typeof c.code === 'string') setCode(c.code);
    if (typeof c.openapi_url === 'string') setUrl(c.openapi_url);
    if (typeof c.api_key === 'string') setKey(c.api_key);
  }, [existing.data]);

  const isPython = type !== 'openapi' && type !== 'api';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local = isPython ? localProblems(code, t) : /^https?:\/\/.+/.test(url.trim()) ? [] : [t('workspace.openApiUrlMissing')];
    setProblems(local);
    if (local.length) return;
    setBusy(true);
    const config = isPython ? { content: code } : { openapi_url: url.trim(), api_key: key, enabled: true };
    try {
      if (id) await toolsApi.update(id, config, { name, description });
      else await toolsApi.create({ name: name.trim(), type: type as ToolType, description, config });
      await qc.invalidateQueries({ queryKey: ['tools'] });
      navigate('/workspace/tools');
    } catch (err) {
      setProblems(messageOf(err).split('\n').filter(Boolean));
    } finally {
      setBusy(false);
    }
  };

  if (id && existing.isPending) return <Loading />;
  if (id && existing.isError) return <ErrorNotice error={existing.error} onRetry={() => void existing.refetch()} />;

  return (
    <form className="col" onSubmit={submit}>
      <section className="card col">
        <h2>{id ? name : isPython ? t('workspace.newTool') : t('workspace.newOpenApiTool')}</h2>
        <div className="form-grid">
          <TextField label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} required />
          <TextField label={t('common.description')} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        {isPython ? (
          <div className="field">
            <span className="field-label">{t('workspace.toolCode')}</span>
            <Suspense fallback={<Loading />}>
              <CodeEditor value={code} onChange={setCode} label={t('workspace.toolCode')} />
            </Suspense>
          </div>
        ) : (
          <div className="form-grid">
            <TextField label={t('workspace.openapiUrl')} value={url} onChange={(e) => setUrl(e.target.value)} placeholder={t('workspace.openApiUrlPlaceholder')} required />
            <TextField label={t('workspace.apiKey')} type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
          </div>
        )}
        {problems.length > 0 && (
          <div className="notice error" role="alert" aria-label={t('workspace.validation')}>
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {problems.map((p, i) => (
                <li key={i} className="mono small" style={{ whiteSpace: 'pre-wrap' }}>
                  {p}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <div className="row end">
        {busy && isPython && (
          // The service checks Python tools in its sandbox: the first check after a start loads Python (up to a minute).
          <span className="row muted small grow" role="status" data-testid="tool-checking">
            <span className="spinner" aria-hidden="true" />
            {t('workspace.toolChecking')}
          </span>
        )}
        <button type="button" className="btn" onClick={() => navigate('/workspace/tools')}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="btn primary" disabled={busy || !name.trim()} aria-busy={busy}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
