import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Loading } from '../components/Feedback';
import { Icon } from '../components/Icon';
import { Logo } from '../components/Logo';
import { AuthScreen } from '../features/auth/AuthScreen';
import { PendingScreen } from '../features/auth/PendingScreen';
import { AppShell } from '../features/shell/AppShell';
import { useT } from '../lib/i18n';
import { useSession } from './session';
import { SettingsProvider } from './settings';

const ChatPage = lazy(() => import('../features/chat/ChatPage'));
const AccountPage = lazy(() => import('../features/account/AccountPage'));
const AdminPage = lazy(() => import('../features/admin/AdminPage'));
const WorkspacePage = lazy(() => import('../features/workspace/WorkspacePage'));
const SharedChatPage = lazy(() => import('../features/library/SharedChatPage'));
const ApiReferencePage = lazy(() => import('../features/reference/ApiReferencePage'));
const ChannelPage = lazy(() => import('../features/channels/ChannelPage'));
const SetupScreen = lazy(() => import('../features/setup/SetupScreen').then((m) => ({ default: m.SetupScreen })));

function Splash() {
  return (
    <div className="center-screen" role="status" aria-live="polite">
      <div className="col" style={{ alignItems: 'center' }}>
        <Logo size={44} />
        <span className="spinner" aria-hidden="true" />
      </div>
    </div>
  );
}

function Unreachable({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  return (
    <div className="center-screen">
      <div className="card col" style={{ alignItems: 'center', maxWidth: 380, textAlign: 'center' }} role="alert">
        <Icon name="alert" size={28} />
        <h1 style={{ fontSize: '1.2rem' }}>{t('app.unreachable')}</h1>
        <button type="button" className="btn primary" onClick={onRetry}>
          {t('app.retry')}
        </button>
      </div>
    </div>
  );
}

function NotFound() {
  const t = useT();
  return (
    <div className="empty">
      <h3>{t('app.notFound')}</h3>
      <a href="/">{t('app.backHome')}</a>
    </div>
  );
}

/** Chooses the screen from the session: splash, sign-in, pending approval, or the app. */
export function App() {
  const { state, reload } = useSession();
  if (state.status === 'loading') return <Splash />;
  if (state.status === 'unreachable') return <Unreachable onRetry={() => void reload()} />;
  if (state.status === 'signedOut') {
    return (
      <Routes>
        <Route path="/signup" element={<AuthScreen />} />
        <Route path="*" element={<AuthScreen />} />
      </Routes>
    );
  }
  if (state.user.role === 'pending') return <PendingScreen />;
  const admin = state.user.role === 'admin';
  return (
    <SettingsProvider>
      <Routes>
        {/* The desktop app's first screen while no provider is connected (admins). */}
        <Route path="setup" element={admin ? <Page><SetupScreen /></Page> : <Navigate to="/" replace />} />
        <Route element={<AppShell />}>
          <Route index element={<Page><ChatPage /></Page>} />
          <Route path="c/:chatId" element={<Page><ChatPage /></Page>} />
          <Route path="s/:shareId" element={<Page><SharedChatPage /></Page>} />
          <Route path="channels/:channelId" element={<Page><ChannelPage /></Page>} />
          <Route path="account" element={<Page><AccountPage /></Page>} />
          <Route path="api-reference" element={<Page><ApiReferencePage /></Page>} />
          <Route path="workspace/*" element={<Page><WorkspacePage /></Page>} />
          <Route path="admin/*" element={admin ? <Page><AdminPage /></Page> : <Navigate to="/" replace />} />
          <Route path="signin" element={<Navigate to="/" replace />} />
          <Route path="signup" element={<Navigate to="/" replace />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </SettingsProvider>
  );
}

function Page({ children }: { children: React.ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}
