import { lazy, memo, Suspense, useRef, useState } from 'react';
import { channelsApi, type ChannelMessage } from '../../api/channels';
import { Avatar } from '../../components/Avatar';
import { useConfirm } from '../../components/Confirm';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useDismiss } from '../../hooks/use-dismiss';
import { formatDateTime, formatList, formatMoment } from '../../lib/format';
import { useT } from '../../lib/i18n';

const Markdown = lazy(() => import('../../components/markdown/Markdown'));

/** The reactions offered at a click. */
const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '👀', '✅', '🙏', '🚀'];

/** Epoch nanoseconds (the channels API's unit) → epoch seconds (the formatters'). */
export const nsToSeconds = (ns: number) => Math.floor(ns / 1e9);

function ReactionPicker({ onPick }: { onPick: (emoji: string) => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(ref, open, () => setOpen(false));
  return (
    <div className="reaction-picker" ref={ref}>
      <button type="button" className="icon-btn small" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-label={t('channels.react')} title={t('channels.react')}>
        <Icon name="plus" size={14} />
      </button>
      {open && (
        <div className="menu reaction-menu" role="menu">
          {QUICK_REACTIONS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              role="menuitem"
              className="reaction-choice"
              aria-label={t('channels.reactWith', { emoji })}
              onClick={() => {
                setOpen(false);
                onPick(emoji);
              }}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * One message of a channel: who wrote it (or which model answered, and who asked), when, its text
 * rendered and sanitised like chat answers (growing while a model streams it), its files and
 * images, its reactions and thread, and the actions its reader may take.
 */
export const ChannelMessageView = memo(function ChannelMessageView({ message, me, manager, onThread }: { message: ChannelMessage; me: string; manager: boolean; onThread?: (id: string) => void }) {
  const t = useT();
  const toast = useToast();
  const confirm = useConfirm();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.content);
  const model = message.meta?.model_id ? (message.meta.model_name ?? message.meta.model_id) : null;
  const streaming = message.meta?.status === 'streaming';
  const mine = message.user_id === me;
  const edited = !model && message.updated_at - message.created_at > 1e9;
  const images = message.data?.files.filter((f) => f.type === 'image') ?? [];
  const others = message.data?.files.filter((f) => f.type !== 'image') ?? [];
  const run = (action: () => Promise<unknown>) => void action().catch((error: unknown) => toast(messageOf(error), 'error'));

  const react = (name: string) => {
    const given = message.reactions.find((r) => r.name === name)?.users.some((u) => u.id === me) ?? false;
    run(() => channelsApi.react(message.channel_id, message.id, name, !given));
  };
  const remove = async () => {
    if (await confirm(t('channels.deleteMessageConfirm'), { action: t('common.delete') })) run(() => channelsApi.delete(message.channel_id, message.id));
  };
  const save = () =>
    run(async () => {
      await channelsApi.edit(message.channel_id, message.id, draft);
      setEditing(false);
    });

  return (
    <article className={`channel-msg${model ? ' from-model' : ''}`} data-testid="channel-message" data-message-id={message.id}>
      <div className="channel-msg-avatar">
        {model ? (
          <span className="model-avatar" aria-hidden="true">
            <Icon name="sparkle" size={16} />
          </span>
        ) : (
          <Avatar name={message.user.name} src={message.user.profile_image_url} />
        )}
      </div>
      <div className="channel-msg-main">
        <header className="channel-msg-head">
          <span className="channel-msg-author" dir="auto">
            {model ?? message.user.name}
          </span>
          {model && <span className="tiny muted">{t('channels.askedBy', { name: message.user.name })}</span>}
          <time className="tiny muted" dateTime={new Date(message.created_at / 1e6).toISOString()} title={formatDateTime(nsToSeconds(message.created_at))}>
            {formatMoment(nsToSeconds(message.created_at))}
          </time>
          {edited && <span className="tiny muted">({t('channels.edited')})</span>}
        </header>
        {editing ? (
          <div className="edit-box">
            <textarea className="textarea" value={draft} onChange={(e) => setDraft(e.target.value)} rows={3} dir="auto" aria-label={t('channels.editMessage')} autoFocus />
            <div className="row end">
              <button type="button" className="btn" onClick={() => setEditing(false)}>
                {t('common.cancel')}
              </button>
              <button type="button" className="btn primary" onClick={save} disabled={!draft.trim()}>
                {t('common.save')}
              </button>
            </div>
          </div>
        ) : (
          <div className={`channel-msg-body${streaming ? ' answer-body live' : ''}`}>
            {streaming && !message.content ? (
              <span className="muted small" role="status">
                {t('channels.answering', { model: model ?? '' })}
              </span>
            ) : (
              <Suspense fallback={<div className="channel-plain">{message.content}</div>}>
                <Markdown text={message.content} streaming={streaming} />
              </Suspense>
            )}
          </div>
        )}
        {message.meta?.status === 'interrupted' && (
          <div className="tiny muted" role="note">
            {message.meta.error ? t('channels.interrupted', { reason: message.meta.error }) : t('channels.interruptedPlain')}
          </div>
        )}
        {message.meta?.sources && message.meta.sources.length > 0 && <div className="tiny muted">{t('channels.sources', { names: formatList(message.meta.sources.map((s) => s.name)) })}</div>}
        {images.length > 0 && (
          <div className="channel-images">
            {images.map((f) => (
              <a key={f.id} href={f.url} target="_blank" rel="noopener noreferrer">
                <img src={f.url} alt={t('channels.image', { name: f.name })} loading="lazy" />
              </a>
            ))}
          </div>
        )}
        {others.length > 0 && (
          <div className="channel-files">
            {others.map((f) => (
              <a key={f.id} className="file-chip" href={f.url} download={f.name}>
                <Icon name="file" size={14} />
                <span className="truncate">{f.name}</span>
              </a>
            ))}
          </div>
        )}
        <div className="channel-msg-foot">
          {message.reactions.map((r) => (
            <button
              key={r.name}
              type="button"
              className="reaction"
              aria-pressed={r.users.some((u) => u.id === me)}
              onClick={() => react(r.name)}
              title={t('channels.reactedBy', { names: formatList(r.users.map((u) => (u.id === me ? t('channels.you') : u.name))), emoji: r.name })}
            >
              <span>{r.name}</span>
              <span className="tiny">{r.count}</span>
            </button>
          ))}
          {onThread && message.reply_count > 0 && (
            <button type="button" className="thread-link tiny" onClick={() => onThread(message.id)}>
              {t('channels.replies', { count: message.reply_count })}
            </button>
          )}
        </div>
      </div>
      {!editing && (
        <div className="channel-msg-actions">
          <ReactionPicker onPick={react} />
          {onThread && (
            <button type="button" className="icon-btn small" onClick={() => onThread(message.id)} aria-label={t('channels.reply')} title={t('channels.reply')}>
              <Icon name="chevronRight" size={14} />
            </button>
          )}
          {mine && !model && (
            <button type="button" className="icon-btn small" onClick={() => (setDraft(message.content), setEditing(true))} aria-label={t('channels.editMessage')} title={t('channels.editMessage')}>
              <Icon name="pencil" size={14} />
            </button>
          )}
          {(mine || manager) && (
            <button type="button" className="icon-btn small" onClick={() => void remove()} aria-label={t('channels.deleteMessage')} title={t('channels.deleteMessage')}>
              <Icon name="trash" size={14} />
            </button>
          )}
        </div>
      )}
    </article>
  );
});
