import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { NavLink, useMatch, useNavigate } from 'react-router';
import { chatsApi, type ChatListEntry } from '../../api/chats';
import { useConfirm } from '../../components/Confirm';
import { isMissing, messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { bucketLabel, dateBucket, type DateBucket } from '../../lib/dates';
import { useT } from '../../lib/i18n';

const ORDER: DateBucket[] = ['today', 'yesterday', 'week', 'month', 'older'];

/** Query key of the sidebar chat list. */
export const CHATS_KEY = ['chats'] as const;

/** The chat list: pinned first, then grouped by date; search, archive view, and per-chat actions. */
export function ChatList({ search }: { search: string }) {
  const t = useT();
  const [showArchived, setShowArchived] = useState(false);
  const chats = useQuery({ queryKey: CHATS_KEY, queryFn: () => chatsApi.list() });
  const archived = useQuery({ queryKey: [...CHATS_KEY, 'archived'], queryFn: chatsApi.archived, enabled: showArchived });

  const groups = useMemo(() => {
    const q = search.trim().toLowerCase();
    const source = showArchived ? (archived.data ?? []) : (chats.data ?? []);
    const visible = source.filter((c) => (q ? c.title.toLowerCase().includes(q) : true) && !!c.archived === showArchived);
    const pinned = showArchived ? [] : visible.filter((c) => c.pinned);
    const rest = visible.filter((c) => showArchived || !c.pinned).sort((a, b) => b.updated_at - a.updated_at);
    const out: Array<{ key: string; label: string; items: ChatListEntry[] }> = [];
    if (pinned.length) out.push({ key: 'pinned', label: t('sidebar.pinned'), items: pinned });
    if (showArchived) out.push({ key: 'archived', label: t('sidebar.archived'), items: rest });
    else for (const b of ORDER) {
      const items = rest.filter((c) => dateBucket(c.updated_at) === b);
      if (items.length) out.push({ key: b, label: bucketLabel(b), items });
    }
    return out;
  }, [chats.data, archived.data, search, showArchived, t]);

  if (chats.isPending) return <div className="muted small" style={{ padding: 10 }}>{t('common.loading')}</div>;
  if (chats.isError) return <div className="muted small" style={{ padding: 10 }}>{isMissing(chats.error) ? t('sidebar.unavailable') : messageOf(chats.error)}</div>;

  return (
    <>
      {groups.length === 0 && <div className="muted small" style={{ padding: 10 }}>{search.trim() ? t('sidebar.noMatch', { query: search.trim() }) : t('sidebar.empty')}</div>}
      {groups.map((g) => (
        <section key={g.key} className="sidebar-group" aria-label={g.label}>
          <div className="sidebar-group-label">{g.label}</div>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {g.items.map((c) => (
              <ChatRow key={c.id} chat={c} />
            ))}
          </ul>
        </section>
      ))}
      <button type="button" className="btn ghost small" style={{ marginTop: 12, color: 'var(--text-muted)', fontWeight: 500 }} onClick={() => setShowArchived((s) => !s)}>
        <Icon name="archive" size={14} />
        {showArchived ? t('sidebar.hideArchived') : t('sidebar.showArchived')}
      </button>
    </>
  );
}

function ChatRow({ chat }: { chat: ChatListEntry }) {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const active = useMatch(`/c/${chat.id}`) !== null;
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(chat.title);
  const ref = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (!menu) return;
    const onDown = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && setMenu(false);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenu(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [menu]);

  const patch = (changes: Partial<ChatListEntry>) => qc.setQueryData<ChatListEntry[]>(CHATS_KEY, (list) => list?.map((c) => (c.id === chat.id ? { ...c, ...changes } : c)));
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
      qc.setQueryData<ChatListEntry[]>(CHATS_KEY, (list) => list?.filter((c) => c.id !== chat.id));
      if (active) navigate('/');
    },
    onError,
  });

  const finishRename = () => {
    setRenaming(false);
    const next = title.trim();
    if (next && next !== chat.title) rename.mutate(next);
    else setTitle(chat.title);
  };

  return (
    <li className={`chat-item${active ? ' active' : ''}`} ref={ref}>
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
        <NavLink to={`/c/${chat.id}`} title={chat.title} onDoubleClick={() => setRenaming(true)}>
          {chat.pinned && <Icon name="pin" size={12} style={{ marginRight: 6, verticalAlign: -1 }} />}
          {chat.title || t('chat.untitled')}
        </NavLink>
      )}
      {!renaming && (
        <button type="button" className="icon-btn small" aria-haspopup="menu" aria-expanded={menu} aria-label={t('sidebar.chatActions', { title: chat.title })} onClick={() => setMenu((m) => !m)}>
          <Icon name="more" size={16} />
        </button>
      )}
      {menu && (
        <div className="menu" role="menu">
          <button type="button" role="menuitem" className="menu-item" onClick={() => (setMenu(false), pin.mutate())}>
            <Icon name="pin" size={15} />
            {chat.pinned ? t('sidebar.unpin') : t('sidebar.pin')}
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => (setMenu(false), setRenaming(true))}>
            <Icon name="pencil" size={15} />
            {t('sidebar.rename')}
          </button>
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
    </li>
  );
}
