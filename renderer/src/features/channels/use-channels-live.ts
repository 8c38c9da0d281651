import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { ChannelEvent, MentionNotice } from '../../../../server/contracts/channels';
import { useToast } from '../../components/Toasts';
import { LIVE_CONNECTED, onLiveEvent } from '../../hooks/use-realtime';
import { desktop } from '../../lib/desktop';
import { t } from '../../lib/i18n';
import { applyChannelEvent, isViewing } from './live';

/** The words a mention shows with (the desktop notification composes its own from the same catalogs). */
function mentionText(notice: MentionNotice): string {
  const vars = { author: notice.author.name, channel: notice.channel_name, preview: notice.preview.slice(0, 120) };
  return notice.everyone ? t('chat.notifiedEveryone', vars) : t('chat.mentionedYou', vars);
}

/**
 * Keeps what the UI shows of channels live while signed in: every `channel-events` frame updates
 * lists, threads and unread counts; a reconnect reloads them (frames may have been missed); a
 * mention shows a notice in the window and, in the desktop app, a system notification unless
 * the person is looking at that channel already.
 */
export function useChannelsLive(me: string): void {
  const qc = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  useEffect(() => {
    const offEvents = onLiveEvent('channel-events', (payload) => {
      const event = payload as ChannelEvent;
      if (event?.data?.type !== 'mention') {
        applyChannelEvent(qc, event, me);
        return;
      }
      const notice = event.data.data as MentionNotice;
      if (isViewing(notice.channel_id) && document.hasFocus()) return;
      toast(mentionText(notice));
      void desktop()
        ?.notify?.({ kind: 'channel-mention', channel_id: notice.channel_id, channel_name: notice.channel_name, author: notice.author.name, preview: notice.preview, everyone: notice.everyone })
        .catch(() => undefined);
    });
    const offConnected = onLiveEvent(LIVE_CONNECTED, () => void qc.invalidateQueries({ queryKey: ['channels'] }));
    const offOpen = desktop()?.onOpenPath?.((path) => navigate(path));
    return () => {
      offEvents();
      offConnected();
      offOpen?.();
    };
  }, [qc, me, toast, navigate]);
}
