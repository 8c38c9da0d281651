import { z } from 'zod';
import { AccessControl } from './access';

/** `/name`: letters, digits, `-` and `_`; the leading slash is optional on input. */
export const PromptCommand = z
  .string()
  .trim()
  .regex(/^\/?[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "must be a '/' followed by up to 64 letters, digits, '-' or '_'")
  .transform((c) => (c.startsWith('/') ? c : `/${c}`).toLowerCase());

/** Body of POST /api/v1/prompts/create and /command/{command}/update. */
export const PromptForm = z.object({
  command: PromptCommand,
  title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  /** The text inserted; `{{CLIPBOARD}}`, `{{CURRENT_DATE}}` and `{{name}}` variables are filled in by the UI. */
  content: z.string().min(1, 'must not be empty').max(100_000, 'must be at most 100,000 characters'),
  access_control: AccessControl.optional(),
});
export type PromptForm = z.infer<typeof PromptForm>;

/** A prompt of the library. */
export const Prompt = z.object({
  command: z.string(),
  user_id: z.string(),
  title: z.string(),
  content: z.string(),
  /** Last change, epoch seconds. */
  timestamp: z.number(),
  access_control: AccessControl,
  /** Whether the caller may change or delete it. */
  write_access: z.boolean(),
});
export type Prompt = z.infer<typeof Prompt>;
