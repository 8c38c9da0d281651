import type { ReactNode } from 'react';
import { useT } from '../../lib/i18n';
import { LanguagePicker } from '../../components/LanguagePicker';
import { Logo } from '../../components/Logo';
import './auth.css';

/** The split layout of the signed-out screens: a brand panel and a form card, with the language menu under it. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const t = useT();
  return (
    <div className="auth-page">
      <aside className="auth-brand" aria-hidden="true">
        <div className="auth-brand-inner">
          <Logo size={44} />
          <p className="auth-brand-name">{t('app.name')}</p>
          <p className="auth-brand-tagline">{t('app.tagline')}</p>
          <div className="auth-bubbles">
            <span className="bubble user">{t('auth.demo.ask')}</span>
            <span className="bubble bot">{t('auth.demo.answer')}</span>
            <span className="bubble user">{t('auth.demo.follow')}</span>
          </div>
        </div>
      </aside>
      <main className="auth-main" id="main">
        <div className="auth-card">
          <div className="auth-mobile-logo">
            <Logo size={36} />
            <span>{t('app.name')}</span>
          </div>
          {children}
          <div className="auth-language">
            <LanguagePicker compact />
          </div>
        </div>
      </main>
    </div>
  );
}
