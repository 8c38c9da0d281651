import './jump-to-message.css';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { MessageNode } from './store';

/** The search parameter naming the message to show when a chat opens (`/c/<id>?message=<messageId>`). */
export const MESSAGE_PARAM = 'message';

/** How long the message found stays marked. */
const MARK_MS = 2500;

/** The address that opens a chat at one of its messages (a search hit), or at its end without one. */
export function chatAt(chatId: string, messageId: string | null | undefined): string {
  return messageId ? `/c/${chatId}?${MESSAGE_PARAM}=${encodeURIComponent(messageId)}` : `/c/${chatId}`;
}

/**
 * Opening a chat at a message (`?message=` in the address, from a search hit): scrolls the thread so
 * that message is in the middle, marks it for a moment, and drops the parameter so a later reload
 * opens at the end as usual; a message in a version not shown (an edited message) has its version
 * shown first. Returns a ref that is true while such a jump is pending, for the thread to skip its
 * usual scroll to the end.
 */
export function useJumpToMessage(
  path: readonly MessageNode[],
  nodes: Readonly<Record<string, MessageNode>>,
  showBranch: (messageId: string) => void,
  scroller: RefObject<HTMLDivElement | null>,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
): RefObject<boolean> {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const target = params.get(MESSAGE_PARAM);
  const index = target ? path.findIndex((n) => n.id === target) : -1;
  // A match in another version of an edited message: that version is shown first.
  const elsewhere = target !== null && index < 0 && target in nodes;
  const pending = useRef(index >= 0 || elsewhere);
  pending.current = index >= 0 || elsewhere;

  useEffect(() => {
    if (elsewhere) showBranch(target);
  }, [target, elsewhere, location.key]);

  useEffect(() => {
    if (!target || index < 0) return;
    let frame = 0;
    let rounds = 0;
    // Rows are measured as they render, which moves the target: scroll again until it holds still.
    const settle = () => {
      virtualizer.scrollToIndex(index, { align: 'center' });
      const row = scroller.current?.querySelector(`.thread-row[data-index="${index}"]`);
      rounds += 1;
      if ((row && rounds >= 4) || rounds >= 60) {
        // The mark outlives this effect: dropping the parameter below ends it, not the mark.
        row?.setAttribute('data-search-hit', '');
        setTimeout(() => row?.removeAttribute('data-search-hit'), MARK_MS);
        pending.current = false;
        setParams(
          (p) => {
            p.delete(MESSAGE_PARAM);
            return p;
          },
          { replace: true },
        );
        return;
      }
      frame = requestAnimationFrame(settle);
    };
    frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
    // Again for the same message when the same hit is opened twice (a new location).
  }, [target, index >= 0, location.key]);

  return pending;
}
