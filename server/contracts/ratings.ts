import { z } from 'zod';

/** Body of POST /api/v1/chats/{id}/messages/{message_id}/rating: 1 good, -1 bad, 0 takes the rating back. */
export const RateMessageRequest = z.object({
  rating: z.union([z.literal(1), z.literal(-1), z.literal(0)]),
  /** Why, in the user's words or a chosen reason. */
  reason: z.string().trim().max(1000).nullable().optional(),
});
export type RateMessageRequest = z.infer<typeof RateMessageRequest>;

/** A user's rating of one answer. */
export const MessageRating = z.object({
  message_id: z.string(),
  rating: z.union([z.literal(1), z.literal(-1)]),
  reason: z.string().nullable(),
  updated_at: z.number(),
});
export type MessageRating = z.infer<typeof MessageRating>;
