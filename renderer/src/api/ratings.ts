import type { MessageRating } from '../../../server/contracts/ratings';
import { http } from './http';

export type { MessageRating };

const chat = (id: string) => `/api/v1/chats/${encodeURIComponent(id)}`;

/** 👍/👎 on answers (when ENABLE_MESSAGE_RATING is on). */
export const ratingsApi = {
  ofChat: (chatId: string) => http.get<MessageRating[]>(`${chat(chatId)}/ratings`),
  /** 1 good, -1 bad, 0 takes the rating back (answers null). */
  rate: (chatId: string, messageId: string, rating: number, reason?: string) =>
    http.post<MessageRating | null>(`${chat(chatId)}/messages/${encodeURIComponent(messageId)}/rating`, { rating, ...(reason ? { reason } : {}) }),
};
