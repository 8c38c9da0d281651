import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useSession, useUser } from '../../app/session';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { ThemeSwitch } from '../../components/ThemeSwitch';
import { useDismiss } from '../../hooks/use-dismiss';
import { useT } from '../../lib/i18n';

/** The account button at the bottom of the sidebar, with theme and sign out. */
export function UserMenu() {
  const t = useT();
  const user = useUser();
  const { signOut } = useSession();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(ref, open, () => setOpen(false));
  return (
    <div ref={ref} style={{ position: 'relative' }}>
      <button type="button" className="user-button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Avatar name={user.name} src={user.profile_image_url} />
        <span className="grow" style={{ minWidth: 0 }}>
          <span className="truncate" style={{ display: 'block', fontWeight: 600, fontSize: '0.9rem' }}>
            {user.name}
          </span>
          <span className="truncate muted tiny" style={{ display: 'block' }}>
            {user.email}
          </span>
        </span>
        <Icon name="chevronDown" size={16} />
      </button>
      {open && (
        <div className="menu user-menu" role="menu">
          <Link to="/account" className="menu-item" role="menuitem" onClick={() => setOpen(false)}>
            <Icon name="user" size={16} />
            {t('nav.account')}
          </Link>
          <Link to="/api-reference" className="menu-item" role="menuitem" onClick={() => setOpen(false)}>
            <Icon name="book" size={16} />
            {t('nav.apiReference')}
          </Link>
          <div style={{ padding: '6px 8px' }}>
            <div className="tiny muted" style={{ marginBottom: 4 }}>
              {t('nav.theme')}
            </div>
            <ThemeSwitch />
          </div>
          <button type="button" className="menu-item" role="menuitem" onClick={() => void signOut()}>
            <Icon name="logout" size={16} />
            {t('auth.signOut')}
          </button>
        </div>
      )}
    </div>
  );
}
