import { lazy, Suspense } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useUser } from '../../app/session';
import { useAbilities } from '../../app/abilities';
import { Icon } from '../../components/Icon';
import { Logo } from '../../components/Logo';
import { usePendingSignups } from '../../hooks/use-pending-signups';
import { useT } from '../../lib/i18n';
import { LibraryActions } from '../library/LibraryActions';
import { setSidebarSearch, useLibraryUi } from '../library/library-ui';
import { ChannelsSection } from '../channels/ChannelsSection';
import { ChatList } from './ChatList';
import { UserMenu } from './UserMenu';

// Loaded when first needed: search results while searching, the share/tags/move dialogs when one opens.
const SearchResults = lazy(() => import('../library/SearchResults').then((m) => ({ default: m.SearchResults })));
const ChatDialogs = lazy(() => import('../library/ChatDialogs').then((m) => ({ default: m.ChatDialogs })));

/** The left column: brand, new chat, chat search and list, workspace/admin links, the user menu. */
export function Sidebar({ onCollapse, onClose }: { onCollapse: () => void; onClose: () => void }) {
  const t = useT();
  const user = useUser();
  const pendingSignups = usePendingSignups(user.role === 'admin');
  const abilities = useAbilities();
  const navigate = useNavigate();
  const { search, dialog } = useLibraryUi();
  const setSearch = setSidebarSearch;
  return (
    <nav className="sidebar" aria-label={t('nav.mainMenu')}>
      <div className="sidebar-head">
        <Link to="/" className="sidebar-brand grow">
          <Logo size={26} />
          {t('app.name')}
        </Link>
        <button type="button" className="icon-btn desktop-only" onClick={onCollapse} aria-label={t('nav.toggleSidebar')} title={t('common.withShortcut', { label: t('nav.toggleSidebar'), shortcut: t('common.kbd.toggleSidebar') })}>
          <Icon name="sidebar" />
        </button>
        <button type="button" className="icon-btn mobile-only" onClick={onClose} aria-label={t('common.close')}>
          <Icon name="x" />
        </button>
      </div>
      <div className="sidebar-actions">
        <button
          type="button"
          className="btn new-chat"
          onClick={() => {
            navigate('/');
            setTimeout(() => document.getElementById('chat-input')?.focus(), 50);
          }}
          title={t('common.withShortcut', { label: t('nav.newChat'), shortcut: t('common.kbd.newChat') })}
        >
          <Icon name="plus" size={16} />
          {t('nav.newChat')}
        </button>
        <div className="sidebar-search">
          <Icon name="search" size={15} />
          <input className="input" type="search" placeholder={t('sidebar.search')} title={t('library.searchHint')} aria-label={t('sidebar.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
      </div>
      <ChannelsSection />
      <div className="sidebar-list">
        {search.trim() ? (
          <Suspense fallback={null}>
            <SearchResults text={search} onTag={(tag) => setSearch(`tag:${tag}`)} />
          </Suspense>
        ) : (
          <ChatList search="" />
        )}
        <LibraryActions />
        {dialog && (
          <Suspense fallback={null}>
            <ChatDialogs />
          </Suspense>
        )}
      </div>
      <div className="sidebar-foot">
        {abilities.notes && (
          <NavLink to="/notes" className="nav-link">
            <Icon name="pencil" size={17} />
            {t('nav.notes')}
          </NavLink>
        )}
        <NavLink to="/workspace" className="nav-link">
          <Icon name="grid" size={17} />
          {t('nav.workspace')}
        </NavLink>
        {user.role === 'admin' && (
          <NavLink to="/admin" className="nav-link">
            <Icon name="settings" size={17} />
            {t('nav.admin')}
            {pendingSignups > 0 && (
              <span className="badge warning nav-badge" data-testid="pending-signups-badge" title={t('nav.pendingSignups', { count: pendingSignups })}>
                <span aria-hidden="true">{pendingSignups}</span>
                <span className="sr-only">{t('nav.pendingSignups', { count: pendingSignups })}</span>
              </span>
            )}
          </NavLink>
        )}
        <UserMenu />
      </div>
    </nav>
  );
}
