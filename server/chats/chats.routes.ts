import { z } from 'zod';
import {
  AddMessageRequest,
  ArchiveRequest,
  Chat,
  ChatAttachmentsRequest,
  ChatListEntry,
  ChatListQuery,
  ChatMessage,
  ChatPageQuery,
  EditMessageRequest,
  NewChatRequest,
  NewChatResponse,
  PinRequest,
  SetCurrentMessageRequest,
  UpdateChatRequest,
} from '../contracts/chats';
import { ChatAttachmentsResponse } from '../contracts/files';
import { route, type RouteUser, type Routes } from '../platform/http/route';
import type { ChatsService } from './chats.service';

/** Section 4.5 chats, plus what a chat client needs beyond it. Mounted at `/api/v1/chats`. */
export function chatsRoutes(chats: ChatsService): Routes {
  // Someone else's chat is refused (403/404) before its body is validated (DESIGN "Decisions").
  const ownChat = async ({ user, params }: { user: RouteUser; params: { id: string } }) => {
    await chats.requireOwn(user, params.id);
  };

  return [
    route({ method: 'get', path: '/', guard: 'user', query: ChatListQuery, summary: 'The caller’s chats, newest first', response: z.array(ChatListEntry) }, ({ user, query }) => chats.list(user, query)),
    route({ method: 'get', path: '/pinned', guard: 'user', query: ChatPageQuery, summary: 'Pinned chats', response: z.array(ChatListEntry) }, ({ user, query }) => chats.listPinned(user, query.page)),
    route({ method: 'get', path: '/archived', guard: 'user', query: ChatPageQuery, summary: 'Archived chats', response: z.array(ChatListEntry) }, ({ user, query }) => chats.listArchived(user, query.page)),
    route({ method: 'post', path: '/new', guard: 'user', body: NewChatRequest, summary: 'Create a chat', response: NewChatResponse }, ({ user, body }) => chats.create(user, body)),
    route({ method: 'get', path: '/:id', guard: 'user', summary: 'A chat with its messages', response: Chat }, ({ user, params }) => chats.get(user, params.id)),
    route({ method: 'post', path: '/:id', guard: 'user', authorize: ownChat, body: UpdateChatRequest, summary: 'Rename a chat', response: Chat }, ({ user, params, body }) => chats.update(user, params.id, body)),
    route({ method: 'delete', path: '/:id', guard: 'user', summary: 'Delete a chat', response: z.boolean() }, async ({ user, params }) => {
      await chats.delete(user, params.id);
      return true;
    }),
    route({ method: 'post', path: '/:id/pin', guard: 'user', authorize: ownChat, body: PinRequest, summary: 'Pin or unpin a chat', response: ChatListEntry }, ({ user, params, body }) => chats.pin(user, params.id, body)),
    route({ method: 'post', path: '/:id/archive', guard: 'user', authorize: ownChat, body: ArchiveRequest, summary: 'Archive or unarchive a chat', response: ChatListEntry }, ({ user, params, body }) =>
      chats.archive(user, params.id, body),
    ),
    route({ method: 'post', path: '/:id/messages', guard: 'user', authorize: ownChat, body: AddMessageRequest, summary: 'Add a message to a chat', response: ChatMessage }, ({ user, params, body }) =>
      chats.addMessage(user, params.id, body),
    ),
    route(
      { method: 'post', path: '/:id/messages/:message_id', guard: 'user', authorize: ownChat, body: EditMessageRequest, summary: 'Edit a message', response: ChatMessage },
      ({ user, params, body }) => chats.editMessage(user, params.id, params.message_id, body),
    ),
    route({ method: 'post', path: '/:id/current', guard: 'user', authorize: ownChat, body: SetCurrentMessageRequest, summary: 'Choose the branch shown', response: Chat }, ({ user, params, body }) =>
      chats.setCurrent(user, params.id, body),
    ),
    route(
      { method: 'patch', path: '/:id/attachments', guard: 'user', authorize: ownChat, body: ChatAttachmentsRequest, summary: 'Set the files attached to a chat', response: ChatAttachmentsResponse },
      ({ user, params, body }) => chats.setAttachments(user, params.id, body.attachment_ids),
    ),
  ];
}
