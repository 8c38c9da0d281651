import { useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useSettings } from '../../app/settings';
import { Icon } from '../../components/Icon';
import { Logo } from '../../components/Logo';
import { useT } from '../../lib/i18n';
import { useRealtime } from '../../hooks/use-realtime';
import { useUser } from '../../app/session';
import { useChannelsLive } from '../channels/use-channels-live';
import { Sidebar } from './Sidebar';
import { TopbarSlotContext } from '../../components/topbar-slot';
import './shell.css';

/** The signed-in frame: sidebar (drawer on phones), top bar on phones, and the page. */
export function AppShell() {
  const t = useT();
  const { settings, update } = useSettings();
  const collapsed = settings.sidebar?.collapsed === true;
  const [drawer, setDrawer] = useState(false);
  const [topbarSlot, setTopbarSlot] = useState<HTMLElement | null>(null);
  const location = useLocation();
  const navigate = useNavigate();
  useRealtime();
  useChannelsLive(useUser().id);

  useEffect(() => setDrawer(false), [location.pathname]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        navigate('/');
        setTimeout(() => document.getElementById('chat-input')?.focus(), 50);
      }
      if (mod && e.shiftKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void update({ sidebar: { ...settings.sidebar, collapsed: !collapsed } });
      }
      if (e.shiftKey && e.key === 'Escape') {
        e.preventDefault();
        document.getElementById('chat-input')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, update, settings.sidebar, collapsed]);

  const toggle = () => void update({ sidebar: { ...settings.sidebar, collapsed: !collapsed } });

  return (
    <div className={`shell${collapsed ? ' collapsed' : ''}${drawer ? ' drawer-open' : ''}`}>
      <a href="#main" className="skip-link">
        {t('app.skip')}
      </a>
      <Sidebar onCollapse={toggle} onClose={() => setDrawer(false)} />
      <div className="drawer-scrim" onClick={() => setDrawer(false)} aria-hidden="true" />
      <div className="shell-main">
        <header className="topbar">
          <button type="button" className="icon-btn mobile-only" onClick={() => setDrawer(true)} aria-label={t('nav.mainMenu')}>
            <Icon name="menu" />
          </button>
          {collapsed && (
            <button type="button" className="icon-btn desktop-only" onClick={toggle} aria-label={t('nav.toggleSidebar')}>
              <Icon name="sidebar" />
            </button>
          )}
          <span className="mobile-only row topbar-brand">
            <Logo size={22} />
            {t('app.name')}
          </span>
          <div className="grow topbar-slot" ref={setTopbarSlot} />
          <button type="button" className="icon-btn mobile-only" onClick={() => navigate('/')} aria-label={t('nav.newChat')}>
            <Icon name="plus" />
          </button>
        </header>
        <main id="main" className="shell-content" tabIndex={-1}>
          <TopbarSlotContext.Provider value={topbarSlot}>
            <Outlet />
          </TopbarSlotContext.Provider>
        </main>
      </div>
    </div>
  );
}
