import { z } from 'zod';

/** An uploaded file as the attachment endpoints show it. */
export const AttachmentFile = z.object({
  id: z.string(),
  /** The name it was uploaded with. */
  filename: z.string(),
  size: z.number(),
  /** Detected from the content (magic bytes), not trusted from the client. */
  mime_type: z.string(),
  /** Where the owner can download it. */
  url: z.string(),
});
export type AttachmentFile = z.infer<typeof AttachmentFile>;

/** A stored file with its metadata (GET /api/v1/files/{id}). */
export const StoredFile = AttachmentFile.extend({
  user_id: z.string(),
  hash: z.string(),
  purpose: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type StoredFile = z.infer<typeof StoredFile>;

/** Answer of PATCH /api/v1/chats/{chat_id}/attachments. */
export const ChatAttachmentsResponse = z.object({
  id: z.string(),
  attachments: z.array(AttachmentFile),
});
export type ChatAttachmentsResponse = z.infer<typeof ChatAttachmentsResponse>;
