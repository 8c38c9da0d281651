import { z } from 'zod';

/** A suggested prompt on the empty chat: a title (a bold line and a quieter one) and the text it sends. */
export const PromptSuggestion = z.object({
  title: z.array(z.string().trim().max(200)).min(1).max(2),
  content: z.string().trim().min(1, 'must not be empty').max(4000),
});
export type PromptSuggestion = z.infer<typeof PromptSuggestion>;

/** Body and answer of /api/v1/configs/suggestions. */
export const PromptSuggestions = z.object({ suggestions: z.array(PromptSuggestion).max(50) });
export type PromptSuggestions = z.infer<typeof PromptSuggestions>;
