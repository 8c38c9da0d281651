import { Router, type RequestHandler } from 'express';
import { authOf, requireUser } from '../session';
import { ChatExportQuery, ChatImportRequest, ChatSearchQuery, ChatTagRequest } from '../contracts/chat-library';
import { MoveChatToFolderRequest } from '../contracts/folders';
import { validateBody, validateQuery } from '../platform/http/validate';
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
export function chatLibraryRoutes(deps: ChatLibraryDeps): Router {
  const { chats, search, organizing, shares, transfer } = deps;
  const router = Router();
  const id = (req: { params: Record<string, unknown> }) => String(req.params.id);
  const ownChat: RequestHandler = async (req, _res, next) => {
    await chats.requireOwn(authOf(req).user, id(req));
    next();
  };
  const mayExport: RequestHandler = async (req, _res, next) => {
    await transfer.requireAllowed(authOf(req).user);
    next();
  };

  router.get('/search', requireUser, validateQuery(ChatSearchQuery), async (req, res) => {
    res.json(await search.search(authOf(req).user.id, res.locals.query as ChatSearchQuery));
  });

  router.get('/all/tags', requireUser, async (req, res) => {
    res.json(await organizing.allTags(authOf(req).user));
  });

  router.get('/all', requireUser, mayExport, validateQuery(ChatExportQuery), async (req, res) => {
    const list = await transfer.exportAll(authOf(req).user);
    if ((res.locals.query as ChatExportQuery).format === 'markdown') {
      res.type('text/markdown; charset=utf-8').attachment('chats.md').send(transfer.markdown(list));
    } else res.json(list);
  });

  router.post('/import', requireUser, mayExport, validateBody(ChatImportRequest), async (req, res) => {
    res.json(await transfer.import(authOf(req).user, (req.body as ChatImportRequest).chats));
  });

  router.post('/archive/all', requireUser, async (req, res) => {
    await organizing.archiveAll(authOf(req).user);
    res.json(true);
  });

  router.get('/share/:share_id', requireUser, async (req, res) => {
    res.json(await shares.open(String(req.params.share_id)));
  });

  router.post('/:id/share', requireUser, async (req, res) => {
    res.json(await shares.share(authOf(req).user, id(req)));
  });

  router.delete('/:id/share', requireUser, async (req, res) => {
    await shares.revoke(authOf(req).user, id(req));
    res.json(true);
  });

  router.get('/:id/export', requireUser, ownChat, mayExport, validateQuery(ChatExportQuery), async (req, res) => {
    const chat = await transfer.exportOne(authOf(req).user, id(req));
    if ((res.locals.query as ChatExportQuery).format === 'markdown') {
      res.type('text/markdown; charset=utf-8').attachment(fileName(chat.title)).send(transfer.markdown([chat]));
    } else res.json(chat);
  });

  router.post('/:id/folder', requireUser, ownChat, validateBody(MoveChatToFolderRequest), async (req, res) => {
    res.json(await organizing.moveToFolder(authOf(req).user, id(req), (req.body as MoveChatToFolderRequest).folder_id));
  });

  router.post('/:id/tags', requireUser, ownChat, validateBody(ChatTagRequest), async (req, res) => {
    res.json(await organizing.addTag(authOf(req).user, id(req), (req.body as ChatTagRequest).name));
  });

  router.delete('/:id/tags', requireUser, ownChat, validateBody(ChatTagRequest), async (req, res) => {
    res.json(await organizing.removeTag(authOf(req).user, id(req), (req.body as ChatTagRequest).name));
  });

  return router;
}
