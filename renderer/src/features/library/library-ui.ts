import { useSyncExternalStore } from 'react';
import type { ChatListEntry } from '../../api/chats';

/** The sidebar's search text and the chat dialog open, shared by the sidebar's parts. */
interface LibraryUi {
  search: string;
  dialog: { kind: 'share' | 'tags' | 'move'; chat: ChatListEntry } | null;
}

let state: LibraryUi = { search: '', dialog: null };
const listeners = new Set<() => void>();

function set(next: Partial<LibraryUi>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

/** Sets the sidebar search text (a tag chip sets `tag:name`). */
export const setSidebarSearch = (search: string) => set({ search });
/** Opens the share, tags or move dialog of a chat; null closes it. */
export const openChatDialog = (dialog: LibraryUi['dialog']) => set({ dialog });

/** Re-renders on changes and returns the current state. */
export function useLibraryUi(): LibraryUi {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => state,
  );
}
