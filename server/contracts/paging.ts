// Kept apart from chats.ts so the UI can read it without loading zod at start-up.

/** Chats shown per page of GET /api/v1/chats. */
export const CHAT_PAGE_SIZE = 60;
