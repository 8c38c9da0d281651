import { z } from 'zod';

const Principals = z.object({
  group_ids: z.array(z.string()).default([]),
  user_ids: z.array(z.string()).default([]),
});

/**
 * Who may read and write a shared resource (model, knowledge base, tool).
 * `null` means public read (writes stay with the owner and admins); an object, even `{}`,
 * means private except the users and groups listed.
 */
export const AccessControl = z
  .object({
    read: Principals.optional(),
    write: Principals.optional(),
  })
  .nullable();
export type AccessControl = z.infer<typeof AccessControl>;
