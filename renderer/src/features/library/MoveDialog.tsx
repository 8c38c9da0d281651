import type { KeyboardEvent } from 'react';
import type { ChatListEntry } from '../../api/chats';
import type { Folder } from '../../api/library';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';
import { useFolders } from './useFolders';

/** Folders in tree order with their depth (children under their parent, by name). */
export function folderTree(folders: Folder[]): Array<{ folder: Folder; depth: number }> {
  const out: Array<{ folder: Folder; depth: number }> = [];
  const ids = new Set(folders.map((f) => f.id));
  const walk = (parent: string | null, depth: number) => {
    for (const f of folders.filter((x) => (x.parent_id && ids.has(x.parent_id) ? x.parent_id : null) === parent).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ folder: f, depth });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** Moves a chat to a folder (or out of any) with the keyboard: Tab or arrows to a folder, Enter. */
export function MoveDialog({ chat, onClose }: { chat: ChatListEntry; onClose: () => void }) {
  const t = useT();
  const { folders, moveChat } = useFolders();
  const pick = (folder: string | null) => {
    moveChat.mutate({ chat: chat.id, folder });
    onClose();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const items = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('button'));
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
  };
  return (
    <Modal title={t('library.moveToNamed', { title: chat.title })} onClose={onClose}>
      <ul className="move-list" aria-label={t('library.folders')} onKeyDown={onKeyDown}>
        <li>
          <button type="button" className="menu-item" aria-current={chat.folder_id ? undefined : 'true'} onClick={() => pick(null)} autoFocus={!chat.folder_id}>
            <Icon name="x" size={15} />
            {t('library.noFolder')}
          </button>
        </li>
        {folderTree(folders).map(({ folder, depth }) => (
          <li key={folder.id}>
            <button type="button" className="menu-item" style={{ paddingInlineStart: 10 + depth * 16 }} aria-current={chat.folder_id === folder.id ? 'true' : undefined} onClick={() => pick(folder.id)} autoFocus={chat.folder_id === folder.id}>
              <Icon name="folder" size={15} />
              {folder.name}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
