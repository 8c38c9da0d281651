import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink, useMatch, useNavigate } from 'react-router';
import { CHAT_PAGE_SIZE } from '../../../../server/contracts/paging';
import { chatsApi, type ChatListEntry } from '../../api/chats';
import { useConfirm } from '../../components/Confirm';
import { isMissing, messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { menuKeyDown } from '../../hooks/list-keys';
import { useDismiss } from '../../hooks/use-dismiss';
import { bucketLabel, dateBucket, type DateBucket } from '../../lib/dates';
import { useT } from '../../lib/i18n';
import type { Folder } from '../../api/library';
import { ChatRowExtras, ChatRowMenuItems } from '../library/ChatRowExtras';
import { DRAG_CHAT, isSidebarDrag, readDrop } from '../library/drag';
import { FolderRow } from '../library/FolderRow';
import { useFolders } from '../library/useFolders';

const ORDER: DateBucket[] = ['today', 'yesterday', 'week', 'month', 'older'];

/** Query key of the sidebar chat list (pages of CHAT_PAGE_SIZE, loaded as the list is scrolled). */
export const CHATS_KEY = ['chats'] as const;

type ChatPages = InfiniteData<ChatListEntry[], number>;
type Row =
  | { kind: 'label'; key: string; label: string; dropRoot?: boolean }
  | { kind: 'chat'; key: string; chat: ChatListEntry; depth: number }
  | { kind: 'folder'; key: string; folder: Folder; depth: number };

/** Applies `edit` to every loaded page of the sidebar list. */
function editPages(qc: ReturnType<typeof useQueryClient>, edit: (list: ChatListEntry[]) => ChatListEntry[]): void {
  qc.setQueryData<ChatPages>(CHATS_KEY, (data) => (data ? { ...data, pages: data.pages.map(edit) } : data));
}

/**
 * The chat list: pinned first, then grouped by date; search, archive view, and per-chat actions.
 * Virtualised (only the rows in view are in the page) and paged: older chats load while scrolling.
 */
export function ChatList({ search }: { search: string }) {
  const t = useT();
  const [showArchived, setShowArchived] = useState(false);
  const chats = useInfiniteQuery({
    queryKey: CHATS_KEY,
    queryFn: ({ pageParam }) => chatsApi.list(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.length >= CHAT_PAGE_SIZE ? all.length + 1 : undefined),
  });
  const archived = useQuery({ queryKey: [...CHATS_KEY, 'archived'], queryFn: chatsApi.archived, enabled: showArchived });
  const box = useRef<HTMLDivElement>(null);
  const { folders, moveChat, update: updateFolder } = useFolders();

  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    const seen = new Set<string>();
    const loaded = (chats.data?.pages ?? []).flat().filter((c) => !seen.has(c.id) && !!seen.add(c.id));
    const source = showArchived ? (archived.data ?? []) : loaded;
    const folderIds = new Set(folders.map((f) => f.id));
    const inFolder = (c: ChatListEntry) => !showArchived && c.folder_id !== null && folderIds.has(c.folder_id);
    const all = source.filter((c) => (q ? c.title.toLowerCase().includes(q) : true) && !!c.archived === showArchived);
    const visible = all.filter((c) => !inFolder(c));
    const pinned = showArchived ? [] : visible.filter((c) => c.pinned);
    const rest = visible.filter((c) => showArchived || !c.pinned).sort((a, b) => b.updated_at - a.updated_at);
    const out: Row[] = [];
    const group = (key: string, label: string, items: ChatListEntry[]) => {
      if (!items.length) return;
      out.push({ kind: 'label', key: `label-${key}`, label, dropRoot: true });
      for (const chat of items) out.push({ kind: 'chat', key: chat.id, chat, depth: 0 });
    };
    if (!showArchived && folders.length > 0) {
      out.push({ kind: 'label', key: 'label-folders', label: t('library.folders'), dropRoot: true });
      const walk = (parent: string | null, depth: number, seen: Set<string>) => {
        for (const folder of folders.filter((f) => f.parent_id === parent && !seen.has(f.id))) {
          seen.add(folder.id);
          out.push({ kind: 'folder', key: `folder-${folder.id}`, folder, depth });
          if (!folder.is_expanded) continue;
          walk(folder.id, depth + 1, seen);
          for (const chat of all.filter((c) => c.folder_id === folder.id).sort((a, b) => b.updated_at - a.updated_at)) out.push({ kind: 'chat', key: chat.id, chat, depth: depth + 1 });
        }
      };
      walk(null, 0, new Set());
    }
    group('pinned', t('sidebar.pinned'), pinned);
    if (showArchived) group('archived', t('sidebar.archived'), rest);
    else for (const b of ORDER) group(b, bucketLabel(b), rest.filter((c) => dateBucket(c.updated_at) === b));
    return out;
  }, [chats.data, archived.data, search, showArchived, t, folders]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => box.current?.closest('.sidebar-list') ?? null,
    estimateSize: (i) => (rows[i]?.kind === 'label' ? 38 : 34),
    overscan: 12,
    getItemKey: (i) => rows[i]?.key ?? i,
  });

  // Load the next page when the end of the loaded chats comes into view.
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1]!.index : -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = chats;
  useEffect(() => {
    if (!showArchived && hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - 8) void fetchNextPage();
  }, [showArchived, hasNextPage, isFetchingNextPage, lastIndex, rows.length, fetchNextPage]);

  // One tab stop for the whole list, folders and chats (roving tabindex): the row last focused,
  // else the open chat, else the first one shown; the arrow keys move between rows, Home/End to the ends.
  const openChat = useMatch('/c/:chatId')?.params.chatId;
  const [rove, setRove] = useState<string | null>(null);
  const shownRows = items.map((item) => rows[item.index]).flatMap((row) => (row && row.kind !== 'label' ? [row.key] : []));
  const tabbable = [rove, openChat].find((key) => key && shownRows.includes(key)) ?? shownRows[0];
  const rowIndexes = rows.flatMap((row, index) => (row.kind !== 'label' ? [index] : []));
  const onRowKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const id = (e.target as HTMLElement).dataset.rove;
    if (!id || !['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const at = rowIndexes.findIndex((i) => rows[i]?.key === id);
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? rowIndexes.length - 1 : Math.min(rowIndexes.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)));
    const index = rowIndexes[to];
    const next = index === undefined ? undefined : rows[index];
    if (index === undefined || !next || next.kind === 'label') return;
    setRove(next.key);
    virtualizer.scrollToIndex(index, { align: 'auto' });
    // A row in the page takes the focus at once; one scrolled out of the window once it is rendered.
    const focus = (tries: number) => {
      const el = box.current?.querySelector<HTMLElement>(`[data-rove="${CSS.escape(next.key)}"]`);
      if (el) el.focus();
      else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    focus(6);
  };

  if (chats.isPending) return <div className="muted small" style={{ padding: 10 }}>{t('common.loading')}</div>;
  if (chats.isError) return <div className="muted small" style={{ padding: 10 }}>{isMissing(chats.error) ? t('sidebar.unavailable') : messageOf(chats.error)}</div>;

  return (
    <>
      {rows.length === 0 && <div className="muted small" style={{ padding: 10 }}>{search.trim() ? t('sidebar.noMatch', { query: search.trim() }) : t('sidebar.empty')}</div>}
      <div ref={box} className="chat-rows" style={{ height: virtualizer.getTotalSize() }}>
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('sidebar.chats')} onKeyDown={onRowKey}>
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <li key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="chat-vrow" style={{ transform: `translateY(${item.start}px)` }}>
                {row.kind === 'label' ? (
                  <div
                    className="sidebar-group-label"
                    onDragOver={(e) => row.dropRoot && isSidebarDrag(e) && e.preventDefault()}
                    onDrop={(e) => {
                      e.preventDefault();
                      const drop = readDrop(e);
                      if (drop.chat) moveChat.mutate({ chat: drop.chat, folder: null });
                      else if (drop.folder) updateFolder.mutate({ id: drop.folder, changes: { parent_id: null } });
                    }}
                  >
                    {row.label}
                  </div>
                ) : row.kind === 'folder' ? (
                  <FolderRow folder={row.folder} depth={row.depth} roveKey={row.key} tabbable={row.key === tabbable} onFocused={setRove} />
                ) : (
                  <ChatRow chat={row.chat} depth={row.depth} tabbable={row.chat.id === tabbable} onFocused={setRove} />
                )}
              </li>
            );
          })}
        </ul>
      </div>
      {isFetchingNextPage && <div className="muted small" style={{ padding: 10 }}>{t('common.loading')}</div>}
      <button type="button" className="btn ghost small show-archived" style={{ marginTop: 12, color: 'var(--text-muted)', fontWeight: 500 }} onClick={() => setShowArchived((s) => !s)}>
        <Icon name="archive" size={14} />
        {showArchived ? t('sidebar.hideArchived') : t('sidebar.showArchived')}
      </button>
    </>
  );
}

/**
 * One chat in the list: one tab stop (its link; `tabbable` says whether it is the list's stop).
 * Its actions are in the menu behind the ⋯ button (shown on hover and focus), opened from the
 * keyboard with the context-menu key or Shift+F10.
 */
function ChatRow({ chat, depth, tabbable, onFocused }: { chat: ChatListEntry; depth: number; tabbable: boolean; onFocused: (id: string) => void }) {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const active = useMatch(`/c/${chat.id}`) !== null;
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(chat.title);
  const ref = useRef<HTMLDivElement>(null);
  const link = useRef<HTMLAnchorElement>(null);

  const closeMenu = (refocus: boolean) => {
    setMenu(false);
    if (refocus) link.current?.focus();
  };
  useDismiss(ref, menu, (reason) => closeMenu(reason === 'escape'));
  /** Opens the menu; from the keyboard, with the focus on its first entry. */
  const openMenu = (fromKeyboard: boolean) => {
    setMenu(true);
    if (fromKeyboard) requestAnimationFrame(() => ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus());
  };

  const patch = (changes: Partial<ChatListEntry>) => editPages(qc, (list) => list.map((c) => (c.id === chat.id ? { ...c, ...changes } : c)));
  const onError = (error: unknown) => {
    toast(messageOf(error), 'error');
    void qc.invalidateQueries({ queryKey: CHATS_KEY });
  };
  const pin = useMutation({ mutationFn: () => chatsApi.pin(chat.id, !chat.pinned), onMutate: () => patch({ pinned: !chat.pinned }), onError, onSettled: () => qc.invalidateQueries({ queryKey: CHATS_KEY }) });
  const archive = useMutation({ mutationFn: () => chatsApi.archive(chat.id, !chat.archived), onMutate: () => patch({ archived: !chat.archived }), onError, onSettled: () => qc.invalidateQueries({ queryKey: CHATS_KEY }) });
  const rename = useMutation({ mutationFn: (next: string) => chatsApi.rename(chat.id, next), onMutate: (next) => patch({ title: next }), onError, onSettled: () => qc.invalidateQueries({ queryKey: CHATS_KEY }) });
  const remove = useMutation({
    mutationFn: () => chatsApi.remove(chat.id),
    onSuccess: () => {
      editPages(qc, (list) => list.filter((c) => c.id !== chat.id));
      if (active) navigate('/');
    },
    onError,
  });

  const finishRename = () => {
    setRenaming(false);
    requestAnimationFrame(() => link.current?.focus());
    const next = title.trim();
    if (next && next !== chat.title) rename.mutate(next);
    else setTitle(chat.title);
  };

  return (
    <div
      className={`chat-item${active ? ' active' : ''}`}
      ref={ref}
      style={depth > 0 ? { paddingInlineStart: depth * 14 } : undefined}
      draggable={!renaming}
      data-testid="chat-row"
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_CHAT, chat.id);
        e.dataTransfer.effectAllowed = 'move';
      }}
    >
      {renaming ? (
        <input
          className="input rename"
          value={title}
          aria-label={t('sidebar.rename')}
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          onBlur={finishRename}
          onKeyDown={(e) => {
            if (e.key === 'Enter') finishRename();
            if (e.key === 'Escape') {
              setTitle(chat.title);
              setRenaming(false);
            }
          }}
        />
      ) : (
        <NavLink
          ref={link}
          to={`/c/${chat.id}`}
          title={chat.title}
          tabIndex={tabbable ? 0 : -1}
          data-rove={chat.id}
          aria-keyshortcuts="Shift+F10"
          onFocus={() => onFocused(chat.id)}
          onDoubleClick={() => setRenaming(true)}
          onKeyDown={(e) => {
            if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
              e.preventDefault();
              openMenu(true);
            }
          }}
        >
          {chat.pinned && <Icon name="pin" size={12} style={{ marginInlineEnd: 6, verticalAlign: -1 }} />}
          {chat.title || t('chat.untitled')}
        </NavLink>
      )}
      <ChatRowExtras chat={chat} />
      {!renaming && (
        <button type="button" className="icon-btn small" tabIndex={-1} aria-haspopup="menu" aria-expanded={menu} aria-label={t('sidebar.chatActions', { title: chat.title })} onClick={() => (menu ? setMenu(false) : openMenu(false))}>
          <Icon name="more" size={16} />
        </button>
      )}
      {menu && (
        <div className="menu" role="menu" aria-label={t('sidebar.chatActions', { title: chat.title })} onKeyDown={menuKeyDown}>
          <button type="button" role="menuitem" className="menu-item" onClick={() => (setMenu(false), pin.mutate())}>
            <Icon name="pin" size={15} />
            {chat.pinned ? t('sidebar.unpin') : t('sidebar.pin')}
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => (setMenu(false), setRenaming(true))}>
            <Icon name="pencil" size={15} />
            {t('sidebar.rename')}
          </button>
          <ChatRowMenuItems chat={chat} close={() => setMenu(false)} />
          <button type="button" role="menuitem" className="menu-item" onClick={() => (setMenu(false), archive.mutate())}>
            <Icon name="archive" size={15} />
            {chat.archived ? t('sidebar.unarchive') : t('sidebar.archive')}
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu-item danger"
            onClick={async () => {
              setMenu(false);
              if (await confirm(t('sidebar.deleteConfirm', { title: chat.title }), { action: t('common.delete') })) remove.mutate();
            }}
          >
            <Icon name="trash" size={15} />
            {t('common.delete')}
          </button>
        </div>
      )}
    </div>
  );
}
