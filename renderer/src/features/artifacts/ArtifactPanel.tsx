import { diffLines } from 'diff';
import { useMemo, useState } from 'react';
import { Icon } from '../../components/Icon';
import { copyText } from '../../lib/clipboard';
import { useT } from '../../lib/i18n';
import { pathOf, useConversation } from '../chat/store';
import { ArtifactFrame } from './ArtifactFrame';
import { openArtifact, versionsIn, type OpenArtifact } from './artifacts';

const EXTENSION = { html: 'html', svg: 'svg', mermaid: 'mmd' } as const;
/** The panel's views. */
const VIEWS = ['preview', 'code', 'compare'] as const;
const TYPE = { html: 'text/html', svg: 'image/svg+xml', mermaid: 'text/plain' } as const;

/** Saves text as a file through the browser. */
function download(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The answers of the conversation, in order (the artifact's versions are found in them). */
function useAnswers(key: string): string[] {
  const conversation = useConversation(key);
  return useMemo(() => (conversation ? pathOf(conversation).filter((n) => n.role === 'assistant').map((n) => n.content) : []), [conversation]);
}

/** Two versions side by side as one diff: removed lines struck, added lines marked. */
function Compare({ before, after }: { before: string; after: string }) {
  const parts = useMemo(() => diffLines(before, after), [before, after]);
  return (
    <pre className="artifact-diff" dir="ltr" data-testid="artifact-diff">
      {parts.map((part, i) => (
        <span key={i} className={part.added ? 'diff-added' : part.removed ? 'diff-removed' : undefined}>
          {part.value}
        </span>
      ))}
    </pre>
  );
}

/**
 * The side panel of an artifact: a live preview (sandboxed, offline), its code, and its versions
 * (each revision the model wrote in this conversation) with a comparison to the one before;
 * copy and download.
 */
export default function ArtifactPanel({ artifact }: { artifact: OpenArtifact }) {
  const t = useT();
  const answers = useAnswers(artifact.conversation);
  const versions = useMemo(() => {
    const found = versionsIn(answers, artifact.kind);
    return found.includes(artifact.code) ? found : [...found, artifact.code];
  }, [answers, artifact]);
  const [view, setView] = useState<'preview' | 'code' | 'compare'>('preview');
  const [copied, setCopied] = useState(false);
  const index = versions.indexOf(artifact.code);
  const show = (i: number) => openArtifact({ ...artifact, code: versions[i]! });
  const title = t(`artifacts.kind.${artifact.kind}`);

  return (
    <aside className="artifact-panel" aria-label={t('artifacts.panel')} data-testid="artifact-panel">
      <div className="artifact-head row">
        <strong className="grow truncate">{title}</strong>
        {versions.length > 1 && (
          <span className="versions">
            <button type="button" className="icon-btn small" disabled={index <= 0} onClick={() => show(index - 1)} aria-label={t('artifacts.previousVersion')}>
              <Icon name="chevronLeft" size={15} />
            </button>
            <span className="tiny muted" data-testid="artifact-version">
              {t('artifacts.version', { n: index + 1, total: versions.length })}
            </span>
            <button type="button" className="icon-btn small" disabled={index >= versions.length - 1} onClick={() => show(index + 1)} aria-label={t('artifacts.nextVersion')}>
              <Icon name="chevronRight" size={15} />
            </button>
          </span>
        )}
        <button
          type="button"
          className="icon-btn small"
          onClick={async () => {
            if (await copyText(artifact.code)) {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            }
          }}
          aria-label={t('artifacts.copy')}
          title={t('artifacts.copy')}
        >
          <Icon name={copied ? 'check' : 'copy'} size={15} />
        </button>
        <button type="button" className="icon-btn small" onClick={() => download(artifact.code, `artifact-${index + 1}.${EXTENSION[artifact.kind]}`, TYPE[artifact.kind])} aria-label={t('artifacts.download')} title={t('artifacts.download')}>
          <Icon name="download" size={15} />
        </button>
        <button type="button" className="icon-btn small" onClick={() => openArtifact(null)} aria-label={t('artifacts.close')} title={t('artifacts.close')}>
          <Icon name="x" size={15} />
        </button>
      </div>
      <div className="tabs artifact-tabs" role="tablist">
        {VIEWS.map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className={`tab${view === v ? ' active' : ''}`} disabled={v === 'compare' && index <= 0} onClick={() => setView(v)}>
            {t(`artifacts.view.${v}`)}
          </button>
        ))}
      </div>
      <div className="artifact-body">
        {view === 'preview' && <ArtifactFrame kind={artifact.kind} code={artifact.code} title={title} />}
        {view === 'code' && (
          <pre className="artifact-code" dir="ltr">
            {artifact.code}
          </pre>
        )}
        {view === 'compare' && index > 0 && <Compare before={versions[index - 1]!} after={artifact.code} />}
      </div>
    </aside>
  );
}
