import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';
import { useJumpToMessage } from './jump-to-message';
import { MessageView, type MessageActions } from './MessageView';
import { siblingsOf, type Conversation, type MessageNode } from './store';

/** The thread, virtualised so a chat with thousands of messages scrolls smoothly; follows new text while at the bottom. */
export function MessageList({
  conversation,
  path,
  modelNames,
  actions,
  ratings,
}: {
  conversation: Conversation;
  path: MessageNode[];
  modelNames: Map<string, string>;
  actions: MessageActions;
  /** The user's ratings of saved answers, by message id. */
  ratings?: Map<string, { rating: number; reason?: string | null }>;
}) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const [atBottom, setAtBottom] = useState(true);
  const streaming = conversation.streamingId !== null;

  const virtualizer = useVirtualizer({
    count: path.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (path[i]?.role === 'user' ? 80 : 180),
    overscan: 6,
    getItemKey: (i) => path[i]?.viewKey ?? path[i]?.id ?? i,
  });

  // Opened from a search hit: the thread shows that message instead of its end.
  const jumping = useJumpToMessage(path, conversation.nodes, actions.onVersion, scroller, virtualizer);

  const scrollToEnd = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const nearEnd = () => {
    const el = scroller.current;
    return !el || el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };
  const onScroll = () => {
    const near = nearEnd();
    pinned.current = near;
    setAtBottom(near);
  };

  const last = path[path.length - 1];
  useEffect(() => {
    if (pinned.current && !jumping.current) requestAnimationFrame(scrollToEnd);
    // The arrow shows only while there is more below (a shorter thread or another chat clears it).
    requestAnimationFrame(() => setAtBottom(nearEnd()));
  }, [path.length, last?.content, last?.error, last?.followUps, scrollToEnd]);

  // Sending (or regenerating) always brings the new message into view, wherever the reader was.
  useEffect(() => {
    if (!conversation.streamingId) return;
    pinned.current = true;
    setAtBottom(true);
    requestAnimationFrame(() => {
      if (path.length) virtualizer.scrollToIndex(path.length - 1, { align: 'end' });
      requestAnimationFrame(scrollToEnd);
    });
  }, [conversation.streamingId]);

  useEffect(() => {
    if (jumping.current) return;
    pinned.current = true;
    setAtBottom(true);
    requestAnimationFrame(() => {
      if (path.length) virtualizer.scrollToIndex(path.length - 1, { align: 'end' });
      scrollToEnd();
    });
    // Only when another chat is opened.
  }, [conversation.key]);

  return (
    <div className="thread-wrap">
      <div className="thread-scroll" ref={scroller} onScroll={onScroll}>
        <div className="thread" style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="log" aria-live="off">
          {virtualizer.getVirtualItems().map((item) => {
            const node = path[item.index]!;
            return (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="thread-row" style={{ position: 'absolute', top: 0, insetInline: 0, transform: `translateY(${item.start}px)` }}>
                <MessageView node={node} siblings={siblingsOf(conversation, node)} isLast={item.index === path.length - 1} streaming={streaming} modelName={node.model ? modelNames.get(node.model) : undefined} actions={node.local ? { ...actions, onRate: undefined } : actions} rating={ratings?.get(node.id)} />
              </div>
            );
          })}
        </div>
      </div>
      {!atBottom && (
        <div className="jump-strip">
          <button
            type="button"
            className="jump-latest"
            onClick={() => {
              pinned.current = true;
              virtualizer.scrollToIndex(path.length - 1, { align: 'end' });
              requestAnimationFrame(scrollToEnd);
            }}
            aria-label={t('chat.jumpToLatest')}
          >
            <Icon name="arrowDown" size={16} />
          </button>
        </div>
      )}
    </div>
  );
}
