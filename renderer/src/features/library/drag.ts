/** Drag-and-drop payload types of the sidebar. */
export const DRAG_CHAT = 'application/x-parley-chat';
export const DRAG_FOLDER = 'application/x-parley-folder';

/** Whether a drag carries a chat or a folder of the sidebar. */
export function isSidebarDrag(e: { dataTransfer: DataTransfer }): boolean {
  const types = Array.from(e.dataTransfer.types);
  return types.includes(DRAG_CHAT) || types.includes(DRAG_FOLDER);
}

/** What is being dropped: a chat id or a folder id. */
export function readDrop(e: { dataTransfer: DataTransfer }): { chat?: string; folder?: string } {
  const chat = e.dataTransfer.getData(DRAG_CHAT);
  const folder = e.dataTransfer.getData(DRAG_FOLDER);
  return { chat: chat || undefined, folder: folder || undefined };
}
