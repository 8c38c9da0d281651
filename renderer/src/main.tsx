import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/http';
import { App } from './app/App';
import { SessionProvider } from './app/session';
import { initTheme } from './app/theme';
import { ConfirmProvider } from './components/Confirm';
import { ToastProvider } from './components/Toasts';
import { desktop } from './lib/desktop';
import { currentLanguage, onLanguageChange, startLanguage } from './lib/i18n';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';

initTheme();
// The first language is loaded before the first render, so nothing flashes in English.
await startLanguage().catch(() => undefined);
// In the desktop window, the shell's menus, tray and dialogs follow the UI's language.
const tellShell = (code: string) => void Promise.resolve(desktop()?.setLanguage?.(code)).catch(() => undefined);
tellShell(currentLanguage());
onLanguageChange(tellShell);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // A missing endpoint or a refusal does not get better by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <ToastProvider>
          <ConfirmProvider>
            <SessionProvider>
              <App />
            </SessionProvider>
          </ConfirmProvider>
        </ToastProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
