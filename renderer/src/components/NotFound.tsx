import { Link } from 'react-router';
import { useT } from '../lib/i18n';

/** The page for an address the app does not know, with a way back (home unless told otherwise). */
export function NotFound({ back }: { back?: { to: string; label: string } }) {
  const t = useT();
  return (
    <div className="empty" data-testid="not-found">
      <h3>{t('app.notFound')}</h3>
      <Link to={back?.to ?? '/'}>{back?.label ?? t('app.backHome')}</Link>
    </div>
  );
}
