import { useEffect, useRef, type RefObject } from 'react';

/** Why a popover closed: a press outside it, or the Escape key. */
export type DismissReason = 'outside' | 'escape';

/**
 * While `open`, closes a popover when the pointer goes down outside `ref` or Escape is pressed
 * (menus, pickers, popovers). `close` may differ per render; the latest one is called.
 */
export function useDismiss(ref: RefObject<HTMLElement | null>, open: boolean, close: (reason: DismissReason) => void): void {
  const latest = useRef(close);
  useEffect(() => {
    latest.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) latest.current('outside');
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') latest.current('escape');
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, ref]);
}
