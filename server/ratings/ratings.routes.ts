import { z } from 'zod';
import type { ChatsService } from '../chats';
import { MessageRating, RateMessageRequest } from '../contracts/ratings';
import { route, type Routes } from '../platform/http/route';
import type { RatingsService } from './ratings.service';

/** Answer ratings, under `/api/v1/chats`: the chat must be the caller's (checked before the body). */
export function ratingsRoutes(deps: { ratings: RatingsService; chats: Pick<ChatsService, 'requireOwn'> }): Routes {
  return [
    route({ method: 'get', path: '/:id/ratings', guard: 'user', summary: 'Ratings of a chat’s answers', response: z.array(MessageRating) }, async ({ user, params }) => {
      await deps.chats.requireOwn(user, params.id);
      return deps.ratings.ofChat(user, params.id);
    }),
    route(
      {
        method: 'post',
        path: '/:id/messages/:message_id/rating',
        guard: 'user',
        authorize: async ({ user, params }) => {
          await deps.chats.requireOwn(user, params.id);
        },
        body: RateMessageRequest,
        summary: 'Rate an answer',
        response: MessageRating.nullable(),
      },
      ({ user, params, body }) => deps.ratings.rate(user, params.id, params.message_id, body),
    ),
  ];
}
