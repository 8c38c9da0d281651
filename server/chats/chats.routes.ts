import { Router, type RequestHandler } from 'express';
import { authOf, requireUser } from '../session';
import {
  AddMessageRequest,
  ArchiveRequest,
  ChatAttachmentsRequest,
  ChatListQuery,
  ChatPageQuery,
  EditMessageRequest,
  NewChatRequest,
  PinRequest,
  SetCurrentMessageRequest,
  UpdateChatRequest,
} from '../contracts/chats';
import { validateBody, validateQuery } from '../platform/http/validate';
import type { ChatsService } from './chats.service';

/** Section 4.5 chats, plus what a chat client needs beyond it. Mounted at `/api/v1/chats`. */
export function chatsRoutes(chats: ChatsService): Router {
  const router = Router();
  const id = (req: { params: Record<string, unknown> }) => String(req.params.id);
  // Someone else's chat is refused (403/404) before its body is validated (DESIGN "Decisions").
  const ownChat: RequestHandler = async (req, _res, next) => {
    await chats.requireOwn(authOf(req).user, id(req));
    next();
  };

  router.get('/', requireUser, validateQuery(ChatListQuery), async (req, res) => {
    res.json(await chats.list(authOf(req).user, res.locals.query as ChatListQuery));
  });

  router.get('/pinned', requireUser, validateQuery(ChatPageQuery), async (req, res) => {
    res.json(await chats.listPinned(authOf(req).user, (res.locals.query as { page: number }).page));
  });

  router.get('/archived', requireUser, validateQuery(ChatPageQuery), async (req, res) => {
    res.json(await chats.listArchived(authOf(req).user, (res.locals.query as { page: number }).page));
  });

  router.post('/new', requireUser, validateBody(NewChatRequest), async (req, res) => {
    res.json(await chats.create(authOf(req).user, req.body as NewChatRequest));
  });

  router.get('/:id', requireUser, async (req, res) => {
    res.json(await chats.get(authOf(req).user, id(req)));
  });

  router.post('/:id', requireUser, ownChat, validateBody(UpdateChatRequest), async (req, res) => {
    res.json(await chats.update(authOf(req).user, id(req), req.body as UpdateChatRequest));
  });

  router.delete('/:id', requireUser, async (req, res) => {
    await chats.delete(authOf(req).user, id(req));
    res.json(true);
  });

  router.post('/:id/pin', requireUser, ownChat, validateBody(PinRequest), async (req, res) => {
    res.json(await chats.pin(authOf(req).user, id(req), req.body as PinRequest));
  });

  router.post('/:id/archive', requireUser, ownChat, validateBody(ArchiveRequest), async (req, res) => {
    res.json(await chats.archive(authOf(req).user, id(req), req.body as ArchiveRequest));
  });

  router.post('/:id/messages', requireUser, ownChat, validateBody(AddMessageRequest), async (req, res) => {
    res.json(await chats.addMessage(authOf(req).user, id(req), req.body as AddMessageRequest));
  });

  router.post('/:id/messages/:message_id', requireUser, ownChat, validateBody(EditMessageRequest), async (req, res) => {
    res.json(await chats.editMessage(authOf(req).user, id(req), String(req.params.message_id), req.body as EditMessageRequest));
  });

  router.post('/:id/current', requireUser, ownChat, validateBody(SetCurrentMessageRequest), async (req, res) => {
    res.json(await chats.setCurrent(authOf(req).user, id(req), req.body as SetCurrentMessageRequest));
  });

  router.patch('/:id/attachments', requireUser, ownChat, validateBody(ChatAttachmentsRequest), async (req, res) => {
    res.json(await chats.setAttachments(authOf(req).user, id(req), (req.body as ChatAttachmentsRequest).attachment_ids));
  });

  return router;
}
