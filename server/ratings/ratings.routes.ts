import { Router } from 'express';
import { authOf, requireUser } from '../session';
import type { ChatsService } from '../chats';
import { RateMessageRequest } from '../contracts/ratings';
import { validateBody } from '../platform/http/validate';
import type { RatingsService } from './ratings.service';

/** Answer ratings, under `/api/v1/chats`: the chat must be the caller's (checked before the body). */
export function ratingsRoutes(deps: { ratings: RatingsService; chats: Pick<ChatsService, 'requireOwn'> }): Router {
  const router = Router();
  router.get('/:id/ratings', requireUser, async (req, res) => {
    await deps.chats.requireOwn(authOf(req).user, String(req.params.id));
    res.json(await deps.ratings.ofChat(authOf(req).user, String(req.params.id)));
  });
  router.post(
    '/:id/messages/:message_id/rating',
    requireUser,
    async (req, _res, next) => {
      await deps.chats.requireOwn(authOf(req).user, String(req.params.id));
      next();
    },
    validateBody(RateMessageRequest),
    async (req, res) => {
      res.json(await deps.ratings.rate(authOf(req).user, String(req.params.id), String(req.params.message_id), req.body as RateMessageRequest));
    },
  );
  return router;
}
