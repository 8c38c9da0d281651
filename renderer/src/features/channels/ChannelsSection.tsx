import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { NavLink } from 'react-router';
import { channelsApi } from '../../api/channels';
import { ApiError } from '../../api/http';
import { useUser } from '../../app/session';
import { Icon } from '../../components/Icon';
import { formatNumber } from '../../lib/format';
import { loadTexts, useT } from '../../lib/i18n';
import { CHANNELS_KEY } from './live';
import './channels.css';

// The form (and the channels' own texts) load when someone creates a channel.
const ChannelDialog = lazy(() => Promise.all([import('./ChannelDialog'), loadTexts(['channels'])]).then(([m]) => ({ default: m.ChannelDialog })));

/** Unread counts stop here on the service: more shows as "999+". */
const UNREAD_CAP = 999;

/** True when the list failed because channels are off (the section then does not exist). */
const isOff = (error: unknown) => error instanceof ApiError && (error.code === 'CHANNELS_DISABLED' || error.status === 404);

/**
 * The sidebar's channels: the person's channels with their unread counts, and "New channel"
 * for those allowed to create one. Shown only while channels are on and the person has a channel
 * or may create one.
 */
export function ChannelsSection() {
  const t = useT();
  const user = useUser();
  const [creating, setCreating] = useState(false);
  const list = useQuery({ queryKey: CHANNELS_KEY, queryFn: channelsApi.list, retry: (count, error) => !isOff(error) && count < 2 });
  const mayCreate = user.role === 'admin' || user.permissions?.features.channels === true;
  if (list.isError && isOff(list.error)) return null;
  const channels = list.data ?? [];
  if (!list.isSuccess || (channels.length === 0 && !mayCreate)) return null;
  return (
    <section className="sidebar-channels" aria-labelledby="sidebar-channels-title">
      <div className="sidebar-channels-head">
        <h2 className="sidebar-group-label grow" id="sidebar-channels-title">
          {t('sidebar.channels')}
        </h2>
        {mayCreate && (
          <button type="button" className="icon-btn small" onClick={() => setCreating(true)} aria-label={t('sidebar.newChannel')} title={t('sidebar.newChannel')}>
            <Icon name="plus" size={15} />
          </button>
        )}
      </div>
      <ul className="channel-links">
        {channels.map((c) => (
          <li key={c.id}>
            <NavLink to={`/channels/${c.id}`} className={({ isActive }) => `channel-link${isActive ? ' active' : ''}${c.unread_count > 0 && !isActive ? ' unread' : ''}`}>
              {({ isActive }) => (
                <>
                  <span className="channel-hash" aria-hidden="true">
                    #
                  </span>
                  <span className="truncate grow" dir="auto">
                    {c.name}
                  </span>
                  {/* The open channel is being read: its count is on its way to zero. */}
                  {c.unread_count > 0 && !isActive && (
                    <span className="unread-badge" aria-label={t('sidebar.channelUnread', { count: c.unread_count })}>
                      {c.unread_count > UNREAD_CAP ? `${formatNumber(UNREAD_CAP)}+` : formatNumber(c.unread_count)}
                    </span>
                  )}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
      {creating && (
        <Suspense fallback={null}>
          <ChannelDialog onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </section>
  );
}
