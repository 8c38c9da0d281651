import { createContext, useContext } from 'react';
import { useMediaQuery } from '../hooks/use-media-query';

/** The free middle of the shell's top bar, where a page may put its own controls. */
export const TopbarSlotContext = createContext<HTMLElement | null>(null);

/** The width below which the shell shows its top bar on every page (as `shell.css`'s phone rules). */
const PHONE_QUERY = '(max-width: 820px)';

/**
 * On a phone, the top bar's slot: a page renders its header controls there (through a portal)
 * so the screen has one bar, not the shell's and the page's stacked. Null elsewhere.
 */
export function usePhoneTopbar(): HTMLElement | null {
  const slot = useContext(TopbarSlotContext);
  return useMediaQuery(PHONE_QUERY) ? slot : null;
}
