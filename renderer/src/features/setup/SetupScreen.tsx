import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { connectionsApi } from '../../api/connections';
import { desktopApi } from '../../api/desktop';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Logo } from '../../components/Logo';
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
  const navigate = useNavigate();
  const qc = useQueryClient();
  const state = useQuery({ queryKey: ['desktop', 'setup'], queryFn: desktopApi.setup });
  const [choice, setChoice] = useState<Choice | null>(null);

  const finish = useCallback(
    () => {
      void qc.invalidateQueries();
      navigate('/', { replace: true });
    },
    [qc, navigate],
  );

  return (
    <div className="center-screen setup-page">
      <main className="card setup-card col" data-testid="setup-screen" id="main">
        <div className="row" style={{ gap: 10 }}>
          <Logo size={32} />
          <h1 className="setup-title">Set up Parley</h1>
        </div>
        <p className="muted">Parley needs a language model to chat with. Pick one way to get started; you can add more later in Admin settings → Connections.</p>
        {state.isLoading && <Loading label="Looking for models on this machine…" />}
        {state.isError && <ErrorNotice error={state.error} onRetry={() => void state.refetch()} />}
        {state.data && (
          <div className="col" style={{ gap: 12 }}>
            <Option id="compat" title="Connect an OpenAI-compatible provider" summary="OpenAI, or any service with the same API. The key is kept in the system keychain." choice={choice} onChoose={setChoice}>
              <CompatForm onDone={() => finish()} />
            </Option>
            <Option
              id="ollama"
              title="Use Ollama on this computer"
              summary={state.data.ollama.found ? `Found at ${state.data.ollama.url} with ${state.data.ollama.models} model${state.data.ollama.models === 1 ? '' : 's'}.` : `Not found at ${state.data.ollama.url}. Start Ollama, then look again.`}
              choice={choice}
              onChoose={setChoice}
            >
              <OllamaChoice url={state.data.ollama.url} found={state.data.ollama.found} onRetry={() => void state.refetch()} onDone={() => finish()} />
            </Option>
            <Option id="builtin" title="Download a built-in model" summary="Runs inside Parley, offline once downloaded. Slower than a hosted model." choice={choice} onChoose={setChoice}>
              <RecommendedModelSetup onDone={() => finish()} />
            </Option>
          </div>
        )}
        {state.data?.secret_store === 'file' && (
          <p className="small muted" data-testid="setup-secret-file">
            No system keychain answered on this computer: keys are kept in an encrypted file in Parley's data folder instead.
          </p>
        )}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <button type="button" className="btn ghost" onClick={() => finish()}>
            Skip for now
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
  const [url, setUrl] = useState(DEFAULT_COMPAT_URL);
  const [key, setKey] = useState('');
  const save = useMutation({
    mutationFn: async () => {
      // Checked before saving, so a wrong address or key is said here, not in the first chat.
      const verified = await connectionsApi.verifyCompat(url.trim(), key.trim());
      if (!verified.status) throw new Error('The provider did not answer with a model list; check the address and key.');
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
      <TextField label="API address" value={url} onChange={(e) => setUrl(e.target.value)} required />
      <TextField label="API key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} hint="Leave empty for a provider without keys." />
      {save.isError && (
        <p role="alert" className="danger-text small">
          {messageOf(save.error)}
        </p>
      )}
      <div>
        <button type="submit" className="btn primary" disabled={save.isPending || url.trim() === ''}>
          {save.isPending ? 'Connecting…' : 'Connect and start chatting'}
        </button>
      </div>
    </form>
  );
}

function OllamaChoice({ url, found, onRetry, onDone }: { url: string; found: boolean; onRetry: () => void; onDone: () => void }) {
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
            Use Ollama and start chatting
          </button>
        ) : (
          <button type="button" className="btn" onClick={onRetry}>
            Look again
          </button>
        )}
      </div>
    </div>
  );
}
