import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { libraryApi } from '../../api/library';
import type { ChatListEntry } from '../../api/chats';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toasts';
import { copyText } from '../../lib/clipboard';
import { useT } from '../../lib/i18n';
import { openChatDialog, useLibraryUi } from './library-ui';
import { MoveDialog } from './MoveDialog';

function ShareDialog({ chat, onClose }: { chat: ChatListEntry; onClose: () => void }) {
  const t = useT();
  const toast = useToast();
  const qc = useQueryClient();
  const [shareId, setShareId] = useState<string | null>(chat.share_id ?? null);
  const link = shareId ? `${window.location.origin}/s/${shareId}` : '';
  const onError = (error: unknown) => toast(messageOf(error), 'error');
  const share = useMutation({ mutationFn: () => libraryApi.share(chat.id), onSuccess: (c) => (setShareId(c.share_id), void qc.invalidateQueries({ queryKey: ['chats'] })), onError });
  const revoke = useMutation({ mutationFn: () => libraryApi.unshare(chat.id), onSuccess: () => (setShareId(null), toast(t('library.linkDeleted')), void qc.invalidateQueries({ queryKey: ['chats'] })), onError });
  return (
    <Modal title={t('library.shareTitle', { title: chat.title })} onClose={onClose}>
      <p className="muted">{t('library.shareIntro')}</p>
      {shareId && (
        <div className="row" style={{ gap: 8, alignItems: 'center' }}>
          <input className="input grow" readOnly value={link} aria-label={t('library.copyLink')} data-testid="share-link" onFocus={(e) => e.target.select()} />
          <button type="button" className="btn" onClick={() => void copyText(link).then(() => toast(t('library.linkCopied')))}>
            <Icon name="copy" size={15} />
            {t('library.copyLink')}
          </button>
        </div>
      )}
      <div className="row" style={{ gap: 8, marginTop: 12 }}>
        <button type="button" className="btn primary" onClick={() => share.mutate()} disabled={share.isPending}>
          {shareId ? t('library.updateLink') : t('library.createLink')}
        </button>
        {shareId && (
          <button type="button" className="btn danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
            {t('library.deleteLink')}
          </button>
        )}
      </div>
    </Modal>
  );
}

function TagsDialog({ chat, onClose }: { chat: ChatListEntry; onClose: () => void }) {
  const t = useT();
  const toast = useToast();
  const qc = useQueryClient();
  const [tags, setTags] = useState<string[]>(chat.tags ?? []);
  const [draft, setDraft] = useState('');
  const done = (entry: ChatListEntry) => (setTags(entry.tags), void qc.invalidateQueries({ queryKey: ['chats'] }));
  const add = useMutation({ mutationFn: (name: string) => libraryApi.addTag(chat.id, name), onSuccess: (e) => (done(e), setDraft('')), onError: (e) => toast(messageOf(e), 'error') });
  const remove = useMutation({ mutationFn: (name: string) => libraryApi.removeTag(chat.id, name), onSuccess: done, onError: (e) => toast(messageOf(e), 'error') });
  return (
    <Modal title={t('library.tags')} onClose={onClose}>
      <div className="tag-chips" style={{ marginBottom: 10 }}>
        {tags.map((tag) => (
          <span key={tag} className="tag-chip">
            #{tag}
            <button type="button" className="chip-x" aria-label={t('library.removeTag', { name: tag })} onClick={() => remove.mutate(tag)}>
              <Icon name="x" size={11} />
            </button>
          </span>
        ))}
      </div>
      <form className="row" style={{ gap: 8 }} onSubmit={(e) => (e.preventDefault(), draft.trim() && add.mutate(draft.trim()))}>
        <input className="input grow" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder={t('library.addTag')} aria-label={t('library.addTag')} autoFocus />
        <button type="submit" className="btn" disabled={!draft.trim()}>
          <Icon name="plus" size={15} />
        </button>
      </form>
    </Modal>
  );
}

/** The share, tags and move dialogs the sidebar's chat menus open. */
export function ChatDialogs() {
  const { dialog } = useLibraryUi();
  if (!dialog) return null;
  const close = () => openChatDialog(null);
  if (dialog.kind === 'move') return <MoveDialog chat={dialog.chat} onClose={close} />;
  return dialog.kind === 'share' ? <ShareDialog chat={dialog.chat} onClose={close} /> : <TagsDialog chat={dialog.chat} onClose={close} />;
}
