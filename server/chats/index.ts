export { createChatsRepo, type ChatsRepo, type ChatRow, type MessageRow } from './chats.repo';
export { createAttachmentsRepo, type AttachmentsRepo } from './attachments.repo';
export { createChatsService, type ChatsService, type ChatCaller, type TurnMessage, DEFAULT_CHAT_TITLE, STOPPED_BY_PERSON } from './chats.service';
export { chatsRoutes } from './chats.routes';
export { attachmentRoutes } from './attachments.routes';
export { chatLibraryRoutes } from './chat-library.routes';
export { createChatLibrary } from './chat-library.module';
export { chatNotFound, chatForbidden } from './chat-errors';
