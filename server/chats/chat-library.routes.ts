import { z } from 'zod';
import { ChatExportQuery, ChatImportReport, ChatImportRequest, ChatSearchEntry, ChatSearchQuery, ChatTagCount, ChatTagRequest, ExportedChat, SharedChat } from '../contracts/chat-library';
import { Chat, ChatListEntry } from '../contracts/chats';
import { MoveChatToFolderRequest } from '../contracts/folders';
import { route, type RouteUser, type Routes } from '../platform/http/route';
import type { ChatOrganizingService } from './chat-organizing.service';
import type { ChatsService } from './chats.service';
import type { ChatSearchService } from './search/chat-search.service';
import type { SharesService } from './share/shares.service';
import type { TransferService } from './transfer/transfer.service';

/** What the chat library routes call. */
export interface ChatLibraryDeps {
  chats: ChatsService;
  search: ChatSearchService;
  organizing: ChatOrganizingService;
  shares: SharesService;
  transfer: TransferService;
}

function fileName(title: string): string {
  return `${title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().slice(0, 80) || 'chat'}.md`;
}

/**
 * Search, tags, folders, share links, archive-all, export and import, on Open WebUI's paths.
 * Mounted at `/api/v1/chats` before the chat routes (so `/search`, `/all` are not read as ids).
 */
export function chatLibraryRoutes(deps: ChatLibraryDeps): Routes {
  const { chats, search, organizing, shares, transfer } = deps;
  type Caller = { user: RouteUser; params: { id: string } };
  const ownChat = async ({ user, params }: Caller) => {
    await chats.requireOwn(user, params.id);
  };
  const mayExport = async ({ user }: { user: RouteUser }) => {
    await transfer.requireAllowed(user);
  };

  return [
    route({ method: 'get', path: '/search', guard: 'user', query: ChatSearchQuery, summary: 'Search the caller’s chats', response: z.array(ChatSearchEntry) }, ({ user, query }) =>
      search.search(user.id, query),
    ),
    route({ method: 'get', path: '/all/tags', guard: 'user', summary: 'Tags used on the caller’s chats', response: z.array(ChatTagCount) }, ({ user }) => organizing.allTags(user)),
    route(
      { method: 'get', path: '/all', guard: 'user', authorize: mayExport, query: ChatExportQuery, produces: 'json-or-markdown', summary: 'Every chat of the caller (export)', response: z.array(ExportedChat) },
      async ({ res, user, query }) => {
        const list = await transfer.exportAll(user);
        if (query.format !== 'markdown') return list;
        res.type('text/markdown; charset=utf-8').attachment('chats.md').send(transfer.markdown(list));
      },
    ),
    route({ method: 'post', path: '/import', guard: 'user', authorize: mayExport, body: ChatImportRequest, summary: 'Import chats', response: ChatImportReport }, ({ user, body }) =>
      transfer.import(user, body.chats),
    ),
    route({ method: 'post', path: '/archive/all', guard: 'user', summary: 'Archive every chat of the caller', response: z.boolean() }, async ({ user }) => {
      await organizing.archiveAll(user);
      return true;
    }),
    route({ method: 'get', path: '/share/:share_id', guard: 'user', summary: 'A shared chat', response: SharedChat }, ({ params }) => shares.open(params.share_id)),
    route({ method: 'post', path: '/:id/share', guard: 'user', summary: 'Share a chat (read-only link)', response: Chat }, ({ user, params }) => shares.share(user, params.id)),
    route({ method: 'delete', path: '/:id/share', guard: 'user', summary: 'Stop sharing a chat', response: z.boolean() }, async ({ user, params }) => {
      await shares.revoke(user, params.id);
      return true;
    }),
    route(
      {
        method: 'get',
        path: '/:id/export',
        guard: 'user',
        authorize: async (ctx) => {
          await ownChat(ctx);
          await mayExport(ctx);
        },
        query: ChatExportQuery,
        produces: 'json-or-markdown',
        summary: 'Export a chat (JSON, Markdown or text)',
        response: ExportedChat,
      },
      async ({ res, user, params, query }) => {
        const chat = await transfer.exportOne(user, params.id);
        if (query.format !== 'markdown') return chat;
        res.type('text/markdown; charset=utf-8').attachment(fileName(chat.title)).send(transfer.markdown([chat]));
      },
    ),
    route({ method: 'post', path: '/:id/folder', guard: 'user', authorize: ownChat, body: MoveChatToFolderRequest, summary: 'Move a chat to a folder', response: ChatListEntry }, ({ user, params, body }) =>
      organizing.moveToFolder(user, params.id, body.folder_id),
    ),
    route({ method: 'post', path: '/:id/tags', guard: 'user', authorize: ownChat, body: ChatTagRequest, summary: 'Tag a chat', response: ChatListEntry }, ({ user, params, body }) =>
      organizing.addTag(user, params.id, body.name),
    ),
    route({ method: 'delete', path: '/:id/tags', guard: 'user', authorize: ownChat, body: ChatTagRequest, summary: 'Remove a tag from a chat', response: ChatListEntry }, ({ user, params, body }) =>
      organizing.removeTag(user, params.id, body.name),
    ),
  ];
}
