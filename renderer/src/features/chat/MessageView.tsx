import { lazy, memo, Suspense, useRef, useState, type MouseEvent } from 'react';
import { Icon } from '../../components/Icon';
import { copyText } from '../../lib/clipboard';
import { useT } from '../../lib/i18n';
import { FileChip } from './FileChip';
import { MemoriesUsed, MemorySuggestions, SaveToNote } from './MemoryNotes';
import { RateAnswer } from './RateAnswer';
import { ReadAloud } from './ReadAloud';
import { ToolSteps } from './ToolSteps';
import { passageCount, PassageDialog, Sources } from './Sources';
import { statusText } from './status-text';
import type { MessageNode } from './store';
import { UsageInfo } from './UsageInfo';

const Markdown = lazy(() => import('../../components/markdown/Markdown'));

export interface MessageActions {
  onCopy(text: string): void;
  onRegenerate(id: string): void;
  onRetry(id: string): void;
  onEdit(id: string, text: string): void;
  onVersion(id: string): void;
  onFollowUp(text: string): void;
  /** Continues a stopped or cut answer. */
  onContinue(id: string): void;
  /** Saves a changed answer as a new version. */
  onEditAnswer(id: string, text: string): void;
  /** Asks for a changed version of an image an answer made ("edit this image"). */
  onEditImage?: (file: { id: string; name: string }, prompt: string) => void;
  /** Rates an answer (1, -1, or 0 to take the rating back); undefined when rating is off. */
  onRate?: (id: string, rating: number, reason?: string) => void;
}

interface Props {
  node: MessageNode;
  siblings: string[];
  isLast: boolean;
  streaming: boolean;
  modelName?: string;
  actions: MessageActions;
  /** The user's rating of this answer, when rating is on. */
  rating?: { rating: number; reason?: string | null };
}

/** One message: a user bubble or an answer with its sources, status, actions and versions. */
export const MessageView = memo(function MessageView({ node, siblings, isLast, streaming, modelName, actions, rating }: Props) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(node.content);
  const [copied, setCopied] = useState<'text' | 'markdown' | null>(null);
  const [cite, setCite] = useState<number | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const index = siblings.indexOf(node.id);

  const versions = siblings.length > 1 && (
    <span className="versions">
      <button type="button" className="icon-btn small" disabled={index <= 0 || streaming} onClick={() => actions.onVersion(siblings[index - 1]!)} aria-label={t('chat.previousVersion')}>
        <Icon name="chevronLeft" size={15} />
      </button>
      <span className="tiny muted" aria-label={t('chat.version', { n: index + 1, total: siblings.length })}>
        {index + 1}/{siblings.length}
      </span>
      <button type="button" className="icon-btn small" disabled={index >= siblings.length - 1 || streaming} onClick={() => actions.onVersion(siblings[index + 1]!)} aria-label={t('chat.nextVersion')}>
        <Icon name="chevronRight" size={15} />
      </button>
    </span>
  );

  const copy = async (as: 'text' | 'markdown') => {
    // Copy gives the text as it reads (for mail, documents); Copy as Markdown the source.
    const text = as === 'markdown' || node.role === 'user' ? node.content : (body.current?.innerText.trim() ?? node.content);
    if (await copyText(text)) {
      setCopied(as);
      actions.onCopy(text);
      setTimeout(() => setCopied(null), 1500);
    }
  };
  const copyError = async () => {
    const text = t('chat.error', { detail: node.error ?? '' });
    if (await copyText(text)) {
      setCopied('text');
      actions.onCopy(text);
      setTimeout(() => setCopied(null), 1500);
    }
  };
  const onCite = (e: MouseEvent) => {
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-cite]');
    if (target) setCite(Number(target.dataset.cite));
  };

  if (node.role === 'user') {
    return (
      <div className="msg user" data-testid="message-user">
        {editing ? (
          <form
            className="edit-box"
            onSubmit={(e) => {
              e.preventDefault();
              setEditing(false);
              if (draft.trim() && draft !== node.content) actions.onEdit(node.id, draft.trim());
            }}
          >
            <textarea className="textarea" dir="auto" value={draft} autoFocus aria-label={t('chat.editMessage')} onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(false)} />
            <div className="row end">
              <button type="button" className="btn small" onClick={() => setEditing(false)}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="btn small primary">
                {t('chat.saveAndSend')}
              </button>
            </div>
          </form>
        ) : (
          <>
            {node.files && node.files.length > 0 && (
              <div className="msg-files">
                {node.files.map((f) => (
                  <FileChip key={`${f.type}:${f.id}`} file={f} />
                ))}
              </div>
            )}
            <div className="bubble-user" dir="auto">
              {node.content}
            </div>
            <div className="msg-foot">
              {versions}
              <div className="msg-actions">
              <button type="button" className="icon-btn small" onClick={() => (setDraft(node.content), setEditing(true))} disabled={streaming} aria-label={t('chat.editMessage')} title={t('chat.editMessage')}>
                <Icon name="pencil" size={15} />
              </button>
              <button type="button" className="icon-btn small" onClick={() => void copy('text')} aria-label={t('chat.copyMessage')} title={t('chat.copyMessage')}>
                <Icon name={copied ? 'check' : 'copy'} size={15} />
              </button>
              </div>
            </div>
          </>
        )}
      </div>
    );
  }

  const live = !node.done;
  const status = node.statuses?.filter((s) => s.description && s.action !== 'knowledge_unmatched').at(-1);
  // A knowledge base searched without a match stays named under the answer (it was not skipped in silence).
  const unmatched = node.statuses?.find((s) => s.action === 'knowledge_unmatched');
  const canContinue = node.done && node.stopped && !node.error && !streaming;
  return (
    <div className="msg assistant" data-testid="message-assistant" aria-busy={live}>
      <div className="msg-model tiny muted">
        <Icon name="sparkle" size={13} />
        {modelName ?? node.model}
      </div>
      {status && (live || !status.done) && (
        <div className="tool-status small" role="status">
          {live && !status.done ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" size={14} />}
          {statusText(status, t)}
        </div>
      )}
      {unmatched && (
        <div className="tool-status small muted" role="note" data-testid="knowledge-unmatched">
          <Icon name="search" size={14} />
          {t('chat.knowledgeUnmatched', { names: (unmatched.names ?? []).join(', ') })}
        </div>
      )}
      {node.toolSteps && node.toolSteps.length > 0 && <ToolSteps steps={node.toolSteps} onEditImage={streaming ? undefined : actions.onEditImage} />}
      {editing ? (
        <form
          className="edit-box"
          onSubmit={(e) => {
            e.preventDefault();
            setEditing(false);
            if (draft.trim() && draft !== node.content) actions.onEditAnswer(node.id, draft);
          }}
        >
          <textarea className="textarea" dir="auto" value={draft} autoFocus aria-label={t('chat.editAnswer')} onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(false)} />
          <div className="row end">
            <button type="button" className="btn small" onClick={() => setEditing(false)}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="btn small primary">
              {t('common.save')}
            </button>
          </div>
        </form>
      ) : node.content ? (
        <div ref={body} onClick={onCite} className={`answer-body${live ? ' live' : ''}`}>
          <Suspense fallback={<div className="markdown plain">{node.content}</div>}>
            {/* A stopped answer keeps the look it had while streaming (markers it opened stay closed). */}
            <Markdown text={node.content} citations={passageCount(node.sources)} streaming={live || !!node.stopped} />
          </Suspense>
        </div>
      ) : live ? (
        <div className="typing" aria-label={t('chat.thinking')}>
          <span />
          <span />
          <span />
        </div>
      ) : null}
      {live && node.content && <span className="caret" aria-hidden="true" />}
      {node.error && (
        <div className="notice error mt" role="alert">
          <Icon name="alert" />
          <div className="grow">{t('chat.error', { detail: node.error })}</div>
          <button type="button" className="btn small" onClick={() => actions.onRetry(node.id)}>
            <Icon name="refresh" size={14} />
            {t('chat.retry')}
          </button>
        </div>
      )}
      {node.done && node.stopped && !node.error && (
        <div className="stopped-mark tiny muted" data-testid="stopped-mark">
          <span>{t('chat.stopped')}</span>
          {canContinue && (
            <button type="button" className="btn small ghost" onClick={() => actions.onContinue(node.id)}>
              <Icon name="play" size={12} />
              {t('chat.continue')}
            </button>
          )}
        </div>
      )}
      {node.memories && node.memories.length > 0 && <MemoriesUsed memories={node.memories} />}
      {node.sources && node.sources.length > 0 && <Sources sources={node.sources} />}
      {cite !== null && node.sources && <PassageDialog sources={node.sources} n={cite} onClose={() => setCite(null)} />}
      {node.done && !editing && (
        <div className="msg-foot">
          {versions}
          {node.error ? (
            // A failed answer has nothing to rate or read aloud: its error can be copied, and it can be asked again.
            <div className="msg-actions">
              <button type="button" className="icon-btn small" onClick={() => void copyError()} aria-label={t('chat.copyError')} title={t('chat.copyError')}>
                <Icon name={copied === 'text' ? 'check' : 'copy'} size={15} />
              </button>
              <button type="button" className="icon-btn small" onClick={() => actions.onRegenerate(node.id)} disabled={streaming} aria-label={t('chat.regenerate')} title={t('chat.regenerate')}>
                <Icon name="refresh" size={15} />
              </button>
            </div>
          ) : (
            <div className="msg-actions">
              <button type="button" className="icon-btn small" onClick={() => (setDraft(node.content), setEditing(true))} disabled={streaming} aria-label={t('chat.editAnswer')} title={t('chat.editAnswer')}>
                <Icon name="pencil" size={15} />
              </button>
              <button type="button" className="icon-btn small" onClick={() => void copy('text')} aria-label={t('chat.copyMessage')} title={t('chat.copyMessage')}>
                <Icon name={copied === 'text' ? 'check' : 'copy'} size={15} />
              </button>
              {node.content && <SaveToNote text={node.content} />}
              <button type="button" className="icon-btn small" onClick={() => void copy('markdown')} aria-label={t('chat.copyMarkdown')} title={t('chat.copyMarkdown')}>
                {copied === 'markdown' ? <Icon name="check" size={15} /> : <Icon name="markdown" size={15} />}
              </button>
              <ReadAloud text={() => body.current?.innerText ?? node.content} />
              {actions.onRate && <RateAnswer value={rating} onRate={(value, reason) => actions.onRate?.(node.id, value, reason)} />}
              <UsageInfo usage={node.usage} />
              <button type="button" className="icon-btn small" onClick={() => actions.onRegenerate(node.id)} disabled={streaming} aria-label={t('chat.regenerate')} title={t('chat.regenerate')}>
                <Icon name="refresh" size={15} />
              </button>
            </div>
          )}
        </div>
      )}
      {node.done && node.memorySuggestions && node.memorySuggestions.length > 0 && <MemorySuggestions suggestions={node.memorySuggestions} />}
      {isLast && node.done && node.followUps && node.followUps.length > 0 && (
        <div className="follow-ups" aria-label={t('chat.followUps')}>
          <div className="tiny muted">{t('chat.followUps')}</div>
          {node.followUps.map((f) => (
            <button key={f} type="button" className="follow-up" onClick={() => actions.onFollowUp(f)} disabled={streaming}>
              <Icon name="chevronRight" size={14} />
              {f}
            </button>
          ))}
        </div>
      )}
    </div>
  );
});
