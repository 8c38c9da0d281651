import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { channelsApi } from '../../api/channels';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { Modal } from '../../components/Modal';
import { formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { nsToSeconds } from './ChannelMessageView';

/** Searches the messages of every channel the person is in; a hit opens its channel (and thread). */
export function ChannelSearch({ onClose }: { onClose: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const hits = useQuery({ queryKey: ['channels', 'search', query], queryFn: () => channelsApi.search(query), enabled: query.length > 0 });
  return (
    <Modal title={t('channels.search')} onClose={onClose} wide>
      <div className="col">
        <input className="input" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder={t('channels.searchPlaceholder')} aria-label={t('channels.searchPlaceholder')} autoFocus />
        {hits.isFetching && <Loading />}
        {hits.isError && <ErrorNotice error={hits.error} />}
        {hits.data && hits.data.length === 0 && <p className="muted small">{t('channels.noResults')}</p>}
        <ul className="channel-hits">
          {hits.data?.map((hit) => (
            <li key={hit.id}>
              <button
                type="button"
                className="channel-hit"
                onClick={() => {
                  onClose();
                  navigate(`/channels/${hit.channel.id}${hit.parent_id ? `?thread=${encodeURIComponent(hit.parent_id)}` : ''}`);
                }}
              >
                <span className="tiny muted">
                  #{hit.channel.name} · {hit.meta?.model_name ?? hit.user.name} · {formatDateTime(nsToSeconds(hit.created_at))}
                </span>
                <span className="channel-hit-text" dir="auto">
                  {hit.content.slice(0, 240)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}
