import { useEffect, type RefObject, type TextareaHTMLAttributes } from 'react';

/** Tallest the message box grows before it scrolls, in pixels. */
const MAX_HEIGHT = 260;

/** A textarea that grows with its text up to a limit, then scrolls. */
export function AutosizeTextarea({ area, value, ...rest }: { area: RefObject<HTMLTextAreaElement | null>; value: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
  }, [area, value]);
  return <textarea ref={area} rows={1} value={value} {...rest} />;
}
