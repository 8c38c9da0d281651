import type { Role } from '../contracts/auth';
import type { MessageRating, RateMessageRequest } from '../contracts/ratings';
import type { Clock } from '../platform/clock';
import { forbidden, HttpError } from '../platform/http/errors';
import type { RatingRow, RatingsRepo } from './ratings.repo';

/** Who rates. */
export interface RatingCaller {
  id: string;
  role: Role;
}

const present = (row: RatingRow): MessageRating => ({ message_id: row.message_id, rating: row.rating === 1 ? 1 : -1, reason: row.reason, updated_at: row.updated_at });

/**
 * 👍/👎 on answers with an optional reason, one rating per user and answer, while the admin
 * setting ENABLE_MESSAGE_RATING is on (403 otherwise). The chat's ownership is checked by the caller.
 */
export function createRatingsService(deps: { repo: RatingsRepo; enabled: () => Promise<boolean>; clock: Clock }) {
  const { repo, clock } = deps;
  const requireEnabled = async () => {
    if (!(await deps.enabled())) throw forbidden('Message rating is turned off', 'RATING_DISABLED');
  };
  return {
    /** Rates an answer of the chat (0 takes the rating back); returns the rating, or null once taken back. */
    async rate(caller: RatingCaller, chatId: string, messageId: string, body: RateMessageRequest): Promise<MessageRating | null> {
      await requireEnabled();
      const role = await repo.messageRole(chatId, messageId);
      if (!role) throw new HttpError(404, 'MESSAGE_NOT_FOUND', 'Message not found in this chat');
      if (role !== 'assistant') throw new HttpError(422, 'NOT_AN_ANSWER', 'rating: only answers (assistant messages) can be rated');
      if (body.rating === 0) {
        await repo.remove(messageId, caller.id);
        return null;
      }
      const now = clock.now();
      const row: RatingRow = { message_id: messageId, chat_id: chatId, user_id: caller.id, rating: body.rating, reason: body.reason || null, created_at: now, updated_at: now };
      await repo.put(row);
      return present(row);
    },

    /** The caller's ratings of this chat's answers. */
    async ofChat(caller: RatingCaller, chatId: string): Promise<MessageRating[]> {
      await requireEnabled();
      return (await repo.ofChat(chatId, caller.id)).map(present);
    },
  };
}
export type RatingsService = ReturnType<typeof createRatingsService>;
