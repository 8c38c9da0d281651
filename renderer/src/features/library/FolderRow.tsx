import { useRef, useState } from 'react';
import type { Folder } from '../../api/library';
import { useConfirm } from '../../components/Confirm';
import { Icon } from '../../components/Icon';
import { menuKeyDown } from '../../hooks/list-keys';
import { useDismiss } from '../../hooks/use-dismiss';
import { useT } from '../../lib/i18n';
import { DRAG_FOLDER, isSidebarDrag, readDrop } from './drag';
import { NameDialog } from './NameDialog';
import { useFolders } from './useFolders';

/**
 * A folder in the sidebar: expand/collapse, rename, subfolder, delete; chats and folders can be
 * dropped on it. One stop of the chat list's single tab stop (`tabbable`, `roveKey`): the arrow
 * keys move on, Right opens and Left closes it, Shift+F10 or the context-menu key opens its actions.
 */
export function FolderRow({ folder, depth, roveKey, tabbable, onFocused }: { folder: Folder; depth: number; roveKey: string; tabbable: boolean; onFocused(key: string): void }) {
  const t = useT();
  const confirm = useConfirm();
  const { update, create, remove, moveChat } = useFolders();
  const [over, setOver] = useState(false);
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(folder.name);
  const [asking, setAsking] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  const toggle = useRef<HTMLButtonElement>(null);
  useDismiss(ref, menu, (reason) => {
    setMenu(false);
    if (reason === 'escape') toggle.current?.focus();
  });
  /** Opens the actions; from the keyboard, with the focus on the first. */
  const openMenu = (fromKeyboard: boolean) => {
    setMenu(true);
    if (fromKeyboard) requestAnimationFrame(() => ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus());
  };

  const finishRename = () => {
    setRenaming(false);
    const next = name.trim();
    if (next && next !== folder.name) update.mutate({ id: folder.id, changes: { name: next } });
    else setName(folder.name);
  };

  return (
    <div
      ref={ref}
      className={`chat-item folder-item${over ? ' drop-over' : ''}`}
      style={{ paddingInlineStart: depth * 14 }}
      draggable={!renaming}
      data-testid="folder"
      data-folder-name={folder.name}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_FOLDER, folder.id);
        e.dataTransfer.effectAllowed = 'move';
      }}
      onDragOver={(e) => {
        if (!isSidebarDrag(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        const drop = readDrop(e);
        if (drop.chat) moveChat.mutate({ chat: drop.chat, folder: folder.id });
        else if (drop.folder && drop.folder !== folder.id) update.mutate({ id: drop.folder, changes: { parent_id: folder.id } });
        if (!folder.is_expanded) update.mutate({ id: folder.id, changes: { is_expanded: true } });
      }}
    >
      {renaming ? (
        <input className="input rename" value={name} aria-label={t('library.renameFolder')} autoFocus onChange={(e) => setName(e.target.value)} onBlur={finishRename} onKeyDown={(e) => (e.key === 'Enter' ? finishRename() : e.key === 'Escape' && (setName(folder.name), setRenaming(false)))} />
      ) : (
        <button
          ref={toggle}
          type="button"
          className="folder-toggle"
          aria-expanded={folder.is_expanded}
          tabIndex={tabbable ? 0 : -1}
          data-rove={roveKey}
          aria-keyshortcuts="Shift+F10"
          onFocus={() => onFocused(roveKey)}
          onClick={() => update.mutate({ id: folder.id, changes: { is_expanded: !folder.is_expanded } })}
          onDoubleClick={() => setRenaming(true)}
          onKeyDown={(e) => {
            const open = e.key === (document.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight');
            const close = e.key === (document.dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft');
            if ((open && !folder.is_expanded) || (close && folder.is_expanded)) {
              e.preventDefault();
              update.mutate({ id: folder.id, changes: { is_expanded: open } });
            } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
              e.preventDefault();
              openMenu(true);
            }
          }}
        >
          <span className={`folder-caret${folder.is_expanded ? ' open' : ''}`} aria-hidden="true">›</span>
          <Icon name="folder" size={15} />
          <span className="truncate">{folder.name}</span>
        </button>
      )}
      {!renaming && (
        <button type="button" className="icon-btn small" tabIndex={-1} aria-haspopup="menu" aria-expanded={menu} aria-label={t('library.folderActions', { name: folder.name })} onClick={() => (menu ? setMenu(false) : openMenu(false))}>
          <Icon name="more" size={16} />
        </button>
      )}
      {asking && <NameDialog title={t('library.subfolder')} label={t('library.folderName')} onDone={(sub) => create.mutate({ name: sub, parent: folder.id })} onClose={() => setAsking(false)} />}
      {menu && (
        <div className="menu" role="menu" aria-label={t('library.folderActions', { name: folder.name })} onKeyDown={menuKeyDown}>
          <button type="button" role="menuitem" className="menu-item" onClick={() => { setMenu(false); setAsking(true); }}>
            <Icon name="plus" size={15} />
            {t('library.subfolder')}
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => { setMenu(false); setRenaming(true); }}>
            <Icon name="pencil" size={15} />
            {t('library.renameFolder')}
          </button>
          {folder.parent_id !== null && (
            <button type="button" role="menuitem" className="menu-item" onClick={() => { setMenu(false); update.mutate({ id: folder.id, changes: { parent_id: null } }); }}>
              <Icon name="folder" size={15} />
              {t('library.noFolder')}
            </button>
          )}
          <button type="button" role="menuitem" className="menu-item danger" onClick={async () => { setMenu(false); if (await confirm(t('library.deleteFolderConfirm', { name: folder.name }), { action: t('common.delete') })) remove.mutate(folder.id); }}>
            <Icon name="trash" size={15} />
            {t('library.deleteFolder')}
          </button>
        </div>
      )}
    </div>
  );
}
