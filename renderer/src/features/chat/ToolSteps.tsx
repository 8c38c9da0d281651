import { useState } from 'react';
import type { MessageToolStep } from '../../api/chats';
import { Icon } from '../../components/Icon';
import { formatBytes, formatDuration, formatNumber } from '../../lib/format';
import { useT } from '../../lib/i18n';

type StepFile = NonNullable<MessageToolStep['files']>[number];

/** Arguments as the model sent them, indented when they are JSON. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The code of an `execute_python` step. */
function codeOf(step: MessageToolStep): string {
  try {
    const args = JSON.parse(step.arguments) as { code?: unknown };
    return typeof args.code === 'string' ? args.code : step.arguments;
  } catch {
    return step.arguments;
  }
}

/** A step's time in the UI's language: "850 ms", "1.5 s" ("1,5 s" in German). i18n fix (langs). */
function duration(ms: number): string {
  return ms < 1000 ? formatDuration(ms) : formatNumber(ms / 1000, { style: 'unit', unit: 'second', unitDisplay: 'short', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

const isPicture = (file: StepFile) => /^image\/(png|jpeg|gif|webp|svg\+xml)$/.test(file.type);

/** What a step made: pictures shown (a chart, a generated image), other files as downloads. */
function StepFiles({ files, onEditImage }: { files: StepFile[]; onEditImage?: (file: StepFile) => void }) {
  const t = useT();
  if (files.length === 0) return null;
  return (
    <div className="step-files">
      {files.filter(isPicture).map((file) => (
        <figure key={file.id} className="step-picture" data-testid="step-picture">
          <img src={file.url} alt={file.name} loading="lazy" />
          <figcaption className="row tiny muted">
            <span className="truncate grow">{file.name}</span>
            {onEditImage && file.type !== 'image/svg+xml' && (
              <button type="button" className="btn small ghost" onClick={() => onEditImage(file)} data-testid="edit-image">
                <Icon name="pencil" size={12} />
                {t('chat.editImage')}
              </button>
            )}
            <a className="btn small ghost" href={file.url} download={file.name} aria-label={t('chat.downloadFile', { name: file.name })}>
              <Icon name="download" size={12} />
            </a>
          </figcaption>
        </figure>
      ))}
      {files
        .filter((file) => !isPicture(file))
        .map((file) => (
          <a key={file.id} className="file-chip" href={file.url} download={file.name} data-testid="step-file">
            <Icon name="download" size={14} />
            <span className="truncate">{file.name}</span>
            <span className="tiny muted">{formatBytes(file.size)}</span>
          </a>
        ))}
    </div>
  );
}

/** A small form under an image: what to change in it. */
function EditImageForm({ file, onSubmit, onCancel }: { file: StepFile; onSubmit: (prompt: string) => void; onCancel: () => void }) {
  const t = useT();
  const [prompt, setPrompt] = useState('');
  return (
    <form
      className="edit-image row"
      onSubmit={(e) => {
        e.preventDefault();
        if (prompt.trim()) onSubmit(prompt.trim());
      }}
    >
      <input className="input grow" autoFocus value={prompt} onChange={(e) => setPrompt(e.target.value)} placeholder={t('chat.editImagePlaceholder')} aria-label={t('chat.editImagePrompt', { name: file.name })} onKeyDown={(e) => e.key === 'Escape' && onCancel()} />
      <button type="submit" className="btn small primary" disabled={!prompt.trim()}>
        {t('chat.editImageSend')}
      </button>
      <button type="button" className="btn small" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/** One step of the code interpreter: what ran (collapsed), what it printed, and what it made. */
function CodeStep({ step }: { step: MessageToolStep }) {
  const t = useT();
  return (
    <div className={`tool-step code-step${step.error ? ' failed' : ''}`} data-testid="code-step">
      <details>
        <summary className="small">
          <Icon name={step.error ? 'alert' : 'code'} size={14} />
          <span className="tool-step-name">{step.error ? t('chat.codeFailed') : t('chat.codeRan')}</span>
          <span className="tiny muted">{duration(step.duration_ms)}</span>
          <Icon name="chevronDown" size={14} className="tool-step-chevron" />
        </summary>
        <div className="tool-step-body" dir="ltr">
          <div className="tiny muted">{t('chat.codeLabel')}</div>
          <pre className="code-step-code">{codeOf(step)}</pre>
          {step.result && (
            <>
              <div className="tiny muted">{t('chat.codeOutput')}</div>
              <pre>{step.result}</pre>
            </>
          )}
          {step.error && (
            <>
              <div className="tiny muted">{t('chat.toolError')}</div>
              <pre className="code-step-error">{step.error}</pre>
            </>
          )}
        </div>
      </details>
      {step.files && <StepFiles files={step.files} />}
    </div>
  );
}

/** An image made for the answer, with "edit this image". */
function ImageStep({ step, onEditImage }: { step: MessageToolStep; onEditImage?: (file: { id: string; name: string }, prompt: string) => void }) {
  const t = useT();
  const [editing, setEditing] = useState<StepFile | null>(null);
  return (
    <div className={`tool-step image-step${step.error ? ' failed' : ''}`} data-testid="image-step">
      {step.error ? (
        <div className="small row">
          <Icon name="alert" size={14} />
          {t('chat.imageFailed', { detail: step.error })}
        </div>
      ) : (
        <StepFiles files={step.files ?? []} onEditImage={onEditImage ? setEditing : undefined} />
      )}
      {editing && onEditImage && (
        <EditImageForm
          file={editing}
          onCancel={() => setEditing(null)}
          onSubmit={(prompt) => {
            setEditing(null);
            onEditImage(editing, prompt);
          }}
        />
      )}
    </div>
  );
}

/** A tool call as a collapsed step: name, duration and failure at a glance; arguments and result inside. */
function CallStep({ step }: { step: MessageToolStep }) {
  const t = useT();
  return (
    <details className={`tool-step${step.error ? ' failed' : ''}`} data-testid="tool-step">
      <summary className="small">
        <Icon name={step.error ? 'alert' : 'wrench'} size={14} />
        <span className="tool-step-name">{step.name}</span>
        <span className="tiny muted">{duration(step.duration_ms)}</span>
        {step.error && <span className="tiny tool-step-error">{t('chat.toolFailed')}</span>}
        <Icon name="chevronDown" size={14} className="tool-step-chevron" />
      </summary>
      <div className="tool-step-body">
        <div className="tiny muted">{t('chat.toolArguments')}</div>
        <pre>{pretty(step.arguments)}</pre>
        <div className="tiny muted">{step.error ? t('chat.toolError') : t('chat.toolResult')}</div>
        <pre>{step.error ?? step.result}</pre>
      </div>
    </details>
  );
}

/** The steps of an answer: tool calls, code the interpreter ran (with its charts and files), images made. */
export function ToolSteps({ steps, onEditImage }: { steps: MessageToolStep[]; onEditImage?: (file: { id: string; name: string }, prompt: string) => void }) {
  return (
    <div className="tool-steps" data-testid="tool-steps">
      {steps.map((step, i) =>
        step.kind === 'code' ? <CodeStep key={`${step.id}:${i}`} step={step} /> : step.kind === 'image' ? <ImageStep key={`${step.id}:${i}`} step={step} onEditImage={onEditImage} /> : <CallStep key={`${step.id}:${i}`} step={step} />,
      )}
    </div>
  );
}
