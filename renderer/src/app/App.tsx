import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Loading } from '../components/Feedback';
import { Icon } from '../components/Icon';
import { Logo } from '../components/Logo';
import { NotFound } from '../components/NotFound';
import { AppShell } from '../features/shell/AppShell';
import { loadTexts, useT } from '../lib/i18n';
import type { Namespace } from '../locales/languages';
import { useSession } from './session';
import { SettingsProvider } from './settings';

// Signed-out and pending screens load only for those who see them.
const AuthScreen = lazy(() => import('../features/auth/AuthScreen').then((m) => ({ default: m.AuthScreen })));
const PendingScreen = lazy(() => import('../features/auth/PendingScreen').then((m) => ({ default: m.PendingScreen })));
/** A lazily loaded page whose texts (page namespaces) load with its code. */
function page<M>(namespaces: readonly Namespace[], load: () => Promise<M>): Promise<M> {
  return Promise.all([load(), loadTexts(namespaces)]).then(([module]) => module);
}

const ChatPage = lazy(() => import('../features/chat/ChatPage'));
const AccountPage = lazy(() => page(['account'], () => import('../features/account/AccountPage')));
const AdminPage = lazy(() => page(['admin'], () => import('../features/admin/AdminPage')));
const WorkspacePage = lazy(() => page(['workspace'], () => import('../features/workspace/WorkspacePage')));
const NotesPage = lazy(() => page(['workspace'], () => import('../features/notes/NotesPage')));
const SharedChatPage = lazy(() => import('../features/library/SharedChatPage'));
const ApiReferencePage = lazy(() => page(['account'], () => import('../features/reference/ApiReferencePage')));
const SetupScreen = lazy(() => page(['setup', 'admin'], () => import('../features/setup/SetupScreen').then((m) => ({ default: m.SetupScreen }))));
const ChannelPage = lazy(() => page(['channels'], () => import('../features/channels/ChannelPage')));

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

/** Chooses the screen from the session: splash, sign-in, pending approval, or the app. */
export function App() {
  const { state, reload } = useSession();
  if (state.status === 'loading') return <Splash />;
  if (state.status === 'unreachable') return <Unreachable onRetry={() => void reload()} />;
  if (state.status === 'signedOut') {
    return (
      <Suspense fallback={<Splash />}>
        <Routes>
          <Route path="/signup" element={<AuthScreen />} />
          <Route path="*" element={<AuthScreen />} />
        </Routes>
      </Suspense>
    );
  }
  if (state.user.role === 'pending') {
    return (
      <Suspense fallback={<Splash />}>
        <PendingScreen />
      </Suspense>
    );
  }
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
          <Route path="notes" element={<Page><NotesPage /></Page>} />
          <Route path="notes/:noteId" element={<Page><NotesPage /></Page>} />
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
