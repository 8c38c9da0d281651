import { z } from 'zod';

const Name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const Id = z.string().min(1).max(100);

/** A folder of chats; folders nest through `parent_id`. */
export const Folder = z.object({
  id: z.string(),
  /** The folder it sits in; null at the top level. */
  parent_id: z.string().nullable(),
  user_id: z.string(),
  name: z.string(),
  /** Whether the sidebar shows its contents. */
  is_expanded: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Folder = z.infer<typeof Folder>;

/** Body of POST /api/v1/folders/. */
export const CreateFolderRequest = z.object({
  name: Name,
  parent_id: Id.nullable().optional(),
});
export type CreateFolderRequest = z.infer<typeof CreateFolderRequest>;

/** Body of POST /api/v1/folders/{id}/update: rename, move (`parent_id`, null = top level) or expand. */
export const UpdateFolderRequest = z.object({
  name: Name.optional(),
  parent_id: Id.nullable().optional(),
  is_expanded: z.boolean().optional(),
});
export type UpdateFolderRequest = z.infer<typeof UpdateFolderRequest>;

/** Body of POST /api/v1/chats/{id}/folder: file the chat (null takes it out of any folder). */
export const MoveChatToFolderRequest = z.object({ folder_id: Id.nullable() });
export type MoveChatToFolderRequest = z.infer<typeof MoveChatToFolderRequest>;
