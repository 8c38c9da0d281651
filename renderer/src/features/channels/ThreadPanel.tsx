import { useQuery } from '@tanstack/react-query';
import { channelsApi } from '../../api/channels';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';
import { ChannelComposer } from './ChannelComposer';
import { ChannelMessageView } from './ChannelMessageView';
import { threadKey } from './live';
import { TypingLine } from './TypingLine';
import type { MentionOption } from './use-channel-mentions';

/** A thread beside the channel: its first message, the replies (live), and a box to reply. */
export function ThreadPanel({ channelId, parentId, me, manager, mentions, onClose }: { channelId: string; parentId: string; me: string; manager: boolean; mentions: MentionOption[]; onClose: () => void }) {
  const t = useT();
  const thread = useQuery({
    queryKey: threadKey(channelId, parentId),
    // Newest first from the service, its first message last: shown oldest first.
    queryFn: async () => (await channelsApi.thread(channelId, parentId)).reverse(),
    staleTime: Infinity,
  });
  return (
    <aside className="thread-panel" aria-label={t('channels.thread')}>
      <div className="thread-panel-head">
        <h2 className="grow">{t('channels.thread')}</h2>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t('channels.closeThread')} title={t('channels.closeThread')}>
          <Icon name="x" />
        </button>
      </div>
      <div className="thread-panel-list">
        {thread.isPending && <Loading />}
        {thread.isError && <ErrorNotice error={thread.error} onRetry={() => void thread.refetch()} />}
        {thread.data?.map((m) => <ChannelMessageView key={m.id} message={m} me={me} manager={manager} />)}
      </div>
      <TypingLine place={`${channelId}/${parentId}`} me={me} />
      <div className="composer-wrap">
        <ChannelComposer channelId={channelId} parentId={parentId} placeholder={t('channels.replyPlaceholder')} mentions={mentions} autoFocus />
      </div>
    </aside>
  );
}
