import { useQueryClient } from '@tanstack/react-query';
import type { ChatListEntry } from '../../api/chats';
import { download, libraryApi } from '../../api/library';
import { messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';
import { openChatDialog, setSidebarSearch } from './library-ui';

/** Safe file name from a chat title. */
export function fileNameOf(title: string, ext: string): string {
  return `${title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().slice(0, 80) || 'chat'}.${ext}`;
}

/**
 * What a sidebar chat row shows beyond its title: one small marker when it has tags (named on
 * hover and to screen readers), never chips that squeeze the title or add tab stops. Filtering by
 * a tag is in the row's menu and the search (`tag:name`).
 */
export function ChatRowExtras({ chat }: { chat: ChatListEntry }) {
  const t = useT();
  const tags = chat.tags ?? [];
  if (tags.length === 0) return null;
  const names = tags.map((tag) => `#${tag}`).join(' ');
  return (
    <span className="chat-tags-marker" title={names} data-testid="chat-tags-marker">
      <Icon name="tag" size={12} />
      <span className="sr-only">{t('library.tagsOf', { tags: names })}</span>
    </span>
  );
}

/** Share, tags, export and un-filing entries of a chat's menu. */
export function ChatRowMenuItems({ chat, close }: { chat: ChatListEntry; close: () => void }) {
  const t = useT();
  const toast = useToast();
  const qc = useQueryClient();
  const run = (fn: () => Promise<unknown>) => () => {
    close();
    fn().catch((error: unknown) => toast(messageOf(error), 'error'));
  };
  return (
    <>
      <button type="button" role="menuitem" className="menu-item" onClick={() => (close(), openChatDialog({ kind: 'share', chat }))}>
        <Icon name="link" size={15} />
        {t('library.share')}
      </button>
      <button type="button" role="menuitem" className="menu-item" onClick={() => (close(), openChatDialog({ kind: 'tags', chat }))}>
        <Icon name="pencil" size={15} />
        {t('library.editTags')}
      </button>
      {(chat.tags ?? []).map((tag) => (
        <button key={tag} type="button" role="menuitem" className="menu-item" onClick={() => (close(), setSidebarSearch(`tag:${tag}`))}>
          <Icon name="tag" size={15} />
          {t('library.filterTag', { name: `#${tag}` })}
        </button>
      ))}
      <button type="button" role="menuitem" className="menu-item" onClick={run(async () => download(fileNameOf(chat.title, 'json'), JSON.stringify([await libraryApi.exportOne(chat.id)], null, 2), 'application/json'))}>
        <Icon name="download" size={15} />
        {t('library.exportJson')}
      </button>
      <button type="button" role="menuitem" className="menu-item" onClick={run(async () => download(fileNameOf(chat.title, 'md'), await libraryApi.markdown(chat.id), 'text/markdown'))}>
        <Icon name="download" size={15} />
        {t('library.exportMarkdown')}
      </button>
      <button type="button" role="menuitem" className="menu-item" onClick={() => (close(), openChatDialog({ kind: 'move', chat }))}>
        <Icon name="folder" size={15} />
        {t('library.moveToEllipsis')}
      </button>
      {chat.folder_id && (
        <button type="button" role="menuitem" className="menu-item" onClick={run(async () => (await libraryApi.moveChat(chat.id, null), await qc.invalidateQueries({ queryKey: ['chats'] })))}>
          <Icon name="folder" size={15} />
          {t('library.noFolder')}
        </button>
      )}
    </>
  );
}
