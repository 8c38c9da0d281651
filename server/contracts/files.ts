/** An uploaded file as the attachment endpoints show it. */
export interface AttachmentFile {
  id: string;
  /** The name it was uploaded with. */
  filename: string;
  size: number;
  /** Detected from the content (magic bytes), not trusted from the client. */
  mime_type: string;
  /** Where the owner can download it. */
  url: string;
}

/** A stored file with its metadata (GET /api/v1/files/{id}). */
export interface StoredFile extends AttachmentFile {
  user_id: string;
  hash: string;
  purpose: string;
  created_at: number;
  updated_at: number;
}

/** Answer of PATCH /api/v1/chats/{chat_id}/attachments. */
export interface ChatAttachmentsResponse {
  id: string;
  attachments: AttachmentFile[];
}
