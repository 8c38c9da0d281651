import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { channelsApi, type ChannelMessage } from '../../api/channels';
import { modelsApi } from '../../api/models';
import { useUser } from '../../app/session';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';
import { ChannelComposer } from './ChannelComposer';
import { ChannelDialog } from './ChannelDialog';
import { ChannelMessageView } from './ChannelMessageView';
import { ChannelSearch } from './ChannelSearch';
import { CHANNELS_KEY, clearUnread, membersKey, messagesKey, setViewing, type MessagePage } from './live';
import { ThreadPanel } from './ThreadPanel';
import { TypingLine } from './TypingLine';
import type { MentionOption } from './use-channel-mentions';
import './channels.css';

/** Messages a page loads at a time. */
const PAGE = 50;
/** Closer to the bottom than this, new messages keep the list scrolled to the end. */
const STICK_PX = 120;

/** Loads the newest page of a channel, oldest first. */
async function newestPage(channelId: string): Promise<MessagePage> {
  const list = await channelsApi.messages(channelId, 0, PAGE);
  return { messages: list.reverse(), hasOlder: list.length === PAGE };
}

/** A channel: its messages (live), threads beside it, the message box, search and settings. */
export default function ChannelPage() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const user = useUser();
  const { channelId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const thread = params.get('thread');
  const [settings, setSettings] = useState(false);
  const [searching, setSearching] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  const channels = useQuery({ queryKey: CHANNELS_KEY, queryFn: channelsApi.list });
  const channel = channels.data?.find((c) => c.id === channelId);
  const page = useQuery({ queryKey: messagesKey(channelId), queryFn: () => newestPage(channelId), enabled: !!channel, staleTime: Infinity });
  const members = useQuery({ queryKey: membersKey(channelId), queryFn: () => channelsApi.members(channelId), enabled: !!channel });
  const models = useQuery({ queryKey: ['models', 'available'], queryFn: modelsApi.available });
  const messages = useMemo(() => page.data?.messages ?? [], [page.data]);
  const newest = messages[messages.length - 1];

  const mentions = useMemo<MentionOption[]>(
    () => [
      ...(channel?.write_access ? [{ kind: 'everyone' as const, insert: 'all', label: t('channels.mentionEveryone') }] : []),
      ...(members.data ?? []).filter((m) => m.id !== user.id).map((m) => ({ kind: 'person' as const, insert: m.name, label: m.name })),
      ...(models.data ?? []).map((m) => ({ kind: 'model' as const, insert: m.id, label: m.name, detail: m.id !== m.name ? m.id : undefined })),
    ],
    [channel?.write_access, members.data, models.data, user.id, t],
  );

  // Open here: new messages of this channel are read, not counted.
  useEffect(() => {
    setViewing(channelId);
    return () => setViewing(null);
  }, [channelId]);

  // The read position follows what is shown: on opening, on each new message, on coming back to the tab.
  const present = channel !== undefined;
  useEffect(() => {
    if (!present) return;
    const mark = () => {
      if (document.visibilityState !== 'visible') return;
      clearUnread(qc, channelId);
      void channelsApi.read(channelId).catch(() => undefined);
    };
    const timer = setTimeout(mark, 300);
    document.addEventListener('visibilitychange', mark);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', mark);
    };
  }, [present, channelId, newest?.id, qc]);

  // New messages keep the list at its end while the reader is there (and always after their own).
  useLayoutEffect(() => {
    const el = list.current;
    if (el && (stick.current || newest?.user_id === user.id)) el.scrollTop = el.scrollHeight;
  }, [newest?.id, newest?.content, newest?.user_id, user.id]);

  const loadOlder = async () => {
    setLoadingOlder(true);
    const el = list.current;
    const fromBottom = el ? el.scrollHeight - el.scrollTop : 0;
    try {
      const loaded = messages.length;
      const older = (await channelsApi.messages(channelId, loaded, PAGE)).reverse();
      qc.setQueryData<MessagePage>(messagesKey(channelId), (p) => {
        if (!p) return p;
        const known = new Set(p.messages.map((m) => m.id));
        return { messages: [...older.filter((m) => !known.has(m.id)), ...p.messages], hasOlder: older.length === PAGE };
      });
      requestAnimationFrame(() => {
        if (el) el.scrollTop = el.scrollHeight - fromBottom;
      });
    } catch (error) {
      toast(messageOf(error), 'error');
    } finally {
      setLoadingOlder(false);
    }
  };

  const openThread = (id: string | null) => setParams(id ? { thread: id } : {}, { replace: true });

  if (channels.isPending) return <Loading />;
  if (channels.isError) return <ErrorNotice error={channels.error} onRetry={() => void channels.refetch()} />;
  if (!channel) {
    return (
      <div className="empty">
        <h3>{t('channels.notFound')}</h3>
      </div>
    );
  }

  const manager = channel.write_access;
  const renderMessage = (m: ChannelMessage) => <ChannelMessageView key={m.id} message={m} me={user.id} manager={manager} onThread={openThread} />;

  return (
    <div className={`channel-page${thread ? ' with-thread' : ''}`}>
      <div className="channel-main">
        <header className="channel-head">
          <div className="grow channel-title">
            <h1 dir="auto">
              <span className="channel-hash" aria-hidden="true">
                #
              </span>
              {channel.name}
              {channel.access_control !== null && <span className="badge">{t('channels.privateBadge')}</span>}
            </h1>
            <div className="tiny muted truncate">
              {members.data && t('channels.memberCount', { count: members.data.length })}
              {channel.description ? ` · ${channel.description}` : ''}
            </div>
          </div>
          <button type="button" className="icon-btn" onClick={() => setSearching(true)} aria-label={t('channels.search')} title={t('channels.search')}>
            <Icon name="search" />
          </button>
          {manager && (
            <button type="button" className="icon-btn" onClick={() => setSettings(true)} aria-label={t('channels.settings')} title={t('channels.settings')}>
              <Icon name="settings" />
            </button>
          )}
        </header>
        <div
          className="channel-list"
          ref={list}
          onScroll={(e) => {
            const el = e.currentTarget;
            stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
          }}
        >
          {page.isPending && <Loading />}
          {page.isError && <ErrorNotice error={page.error} onRetry={() => void page.refetch()} />}
          {page.data?.hasOlder && (
            <div className="row" style={{ justifyContent: 'center', padding: 8 }}>
              <button type="button" className="btn small" onClick={() => void loadOlder()} disabled={loadingOlder}>
                {t('channels.loadOlder')}
              </button>
            </div>
          )}
          {page.isSuccess && messages.length === 0 && <p className="muted channel-empty">{t('channels.empty')}</p>}
          {messages.map(renderMessage)}
        </div>
        <TypingLine place={channelId} me={user.id} />
        <div className="composer-wrap">
          <ChannelComposer key={channelId} channelId={channelId} placeholder={t('channels.placeholder', { name: channel.name })} mentions={mentions} autoFocus />
        </div>
      </div>
      {thread && <ThreadPanel key={thread} channelId={channelId} parentId={thread} me={user.id} manager={manager} mentions={mentions} onClose={() => openThread(null)} />}
      {settings && <ChannelDialog channel={channel} onClose={() => setSettings(false)} />}
      {searching && <ChannelSearch onClose={() => setSearching(false)} />}
    </div>
  );
}
