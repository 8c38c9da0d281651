import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { chatWith } from '../../app/chat-link';
import { connectionsApi } from '../../api/connections';
import { desktopApi } from '../../api/desktop';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Logo } from '../../components/Logo';
import { useT } from '../../lib/i18n';
import { RecommendedModelSetup } from '../builtin/recommended-model-setup';
import './setup.css';

type Choice = 'compat' | 'ollama' | 'builtin';

const DEFAULT_COMPAT_URL = 'https://api.openai.com/v1';

/**
 * The first screen of a new desktop workspace (no provider yet): connect an OpenAI-compatible
 * provider (its key goes to the secret store), use a local Ollama found on its default port, or
 * download a built-in model. Each ends in a first chat; "Skip" goes to the app as it is.
 */
export function SetupScreen() {
  const t = useT();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const state = useQuery({ queryKey: ['desktop', 'setup'], queryFn: desktopApi.setup });
  const [choice, setChoice] = useState<Choice | null>(null);

  const finish = useCallback(
    (modelId?: string) => {
      void qc.invalidateQueries();
      navigate(modelId ? chatWith(modelId) : '/', { replace: true });
    },
    [qc, navigate],
  );

  return (
    <div className="center-screen setup-page">
      <main className="card setup-card col" data-testid="setup-screen" id="main">
        <div className="row" style={{ gap: 10 }}>
          <Logo size={32} />
          <h1 className="setup-title">{t('setup.title')}</h1>
        </div>
        <p className="muted">{t('setup.intro')}</p>
        {state.isLoading && <Loading label={t('setup.looking')} />}
        {state.isError && <ErrorNotice error={state.error} onRetry={() => void state.refetch()} />}
        {state.data && (
          <div className="col" style={{ gap: 12 }}>
            <Option id="compat" title={t('setup.compatTitle')} summary={t('setup.compatSummary')} choice={choice} onChoose={setChoice}>
              <CompatForm onDone={() => finish()} />
            </Option>
            <Option
              id="ollama"
              title={t('setup.ollamaTitle')}
              summary={state.data.ollama.found ? t('setup.ollamaFound', { url: state.data.ollama.url, count: state.data.ollama.models }) : t('setup.ollamaMissing', { url: state.data.ollama.url })}
              choice={choice}
              onChoose={setChoice}
            >
              <OllamaChoice url={state.data.ollama.url} found={state.data.ollama.found} onRetry={() => void state.refetch()} onDone={() => finish()} />
            </Option>
            <Option id="builtin" title={t('setup.builtinTitle')} summary={t('setup.builtinSummary')} choice={choice} onChoose={setChoice}>
              <RecommendedModelSetup onDone={(id) => finish(id)} />
            </Option>
          </div>
        )}
        {state.data?.secret_store === 'file' && (
          <p className="small muted" data-testid="setup-secret-file">
            {t('setup.secretFile')}
          </p>
        )}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <button type="button" className="btn ghost" onClick={() => finish()}>
            {t('setup.skip')}
          </button>
        </div>
      </main>
    </div>
  );
}

function Option(props: { id: Choice; title: string; summary: string; choice: Choice | null; onChoose: (c: Choice) => void; children: React.ReactNode }) {
  const open = props.choice === props.id;
  return (
    <section className={`setup-option${open ? ' open' : ''}`} data-testid={`setup-option-${props.id}`}>
      <button type="button" className="setup-option-head" aria-expanded={open} onClick={() => props.onChoose(props.id)}>
        <strong>{props.title}</strong>
        <span className="muted small">{props.summary}</span>
      </button>
      {open && <div className="setup-option-body">{props.children}</div>}
    </section>
  );
}

function CompatForm({ onDone }: { onDone: () => void }) {
  const t = useT();
  const [url, setUrl] = useState(DEFAULT_COMPAT_URL);
  const [key, setKey] = useState('');
  const save = useMutation({
    mutationFn: async () => {
      // Checked before saving, so a wrong address or key is said here, not in the first chat.
      const verified = await connectionsApi.verifyCompat(url.trim(), key.trim());
      if (!verified.status) throw new Error(t('setup.noModelList'));
      await connectionsApi.setCompat({ COMPAT_API_BASE_URLS: [url.trim().replace(/\/+$/, '')], COMPAT_API_KEYS: [key.trim()], COMPAT_API_CONFIGS: {} });
    },
    onSuccess: onDone,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="col" style={{ gap: 10 }} onSubmit={submit} noValidate>
      <TextField label={t('setup.apiAddress')} value={url} onChange={(e) => setUrl(e.target.value)} required />
      <TextField label={t('setup.apiKey')} type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} hint={t('setup.apiKeyHint')} />
      {save.isError && (
        <p role="alert" className="danger-text small">
          {messageOf(save.error)}
        </p>
      )}
      <div>
        <button type="submit" className="btn primary" disabled={save.isPending || url.trim() === ''}>
          {save.isPending ? t('setup.connecting') : t('setup.connect')}
        </button>
      </div>
    </form>
  );
}

function OllamaChoice({ url, found, onRetry, onDone }: { url: string; found: boolean; onRetry: () => void; onDone: () => void }) {
  const t = useT();
  const save = useMutation({
    mutationFn: () => connectionsApi.setLocal({ LOCAL_BASE_URLS: [url], LOCAL_API_CONFIGS: {} }),
    onSuccess: onDone,
  });
  return (
    <div className="col" style={{ gap: 10 }}>
      {save.isError && (
        <p role="alert" className="danger-text small">
          {messageOf(save.error)}
        </p>
      )}
      <div className="row" style={{ gap: 8 }}>
        {found ? (
          <button type="button" className="btn primary" disabled={save.isPending} onClick={() => save.mutate()}>
            {t('setup.useOllama')}
          </button>
        ) : (
          <button type="button" className="btn" onClick={onRetry}>
            {t('setup.lookAgain')}
          </button>
        )}
      </div>
    </div>
  );
}
