import { z } from 'zod';

/** Answer of the public `GET /api/config`: what a signed-out browser needs to draw the first screen. */
export const PublicConfig = z.object({
  /** Product name. */
  name: z.string(),
  /** Service version. */
  version: z.string(),
  /** True while no account exists: the UI shows the welcome screen that creates the admin. */
  onboarding: z.boolean(),
  features: z.object({
    /** Whether self sign-up is open (ENABLE_SIGNUP). */
    enable_signup: z.boolean(),
    /** Whether users may create API keys (ENABLE_API_KEY). */
    enable_api_key: z.boolean(),
    /** Whether answers can be rated 👍/👎 (ENABLE_MESSAGE_RATING). */
    enable_message_rating: z.boolean().optional(),
    /** Whether the Run button of code blocks works (ENABLE_CODE_EXECUTION); only told to signed-in callers. */
    enable_code_execution: z.boolean().optional(),
    /** Whether the code interpreter can be turned on in chats (ENABLE_CODE_INTERPRETER); only told to signed-in callers. */
    enable_code_interpreter: z.boolean().optional(),
    /** Whether images can be generated (ENABLE_IMAGE_GENERATION); only told to signed-in callers. */
    enable_image_generation: z.boolean().optional(),
    /** Whether images can be edited with a prompt (the engine supports it); only told to signed-in callers. */
    enable_image_edit: z.boolean().optional(),
    /** Whether an admin turned web search on (ENABLE_WEB_SEARCH); only told to signed-in callers. */
    enable_web_search: z.boolean().optional(),
    /** Whether notes are on (ENABLE_NOTES); each person also needs `features.notes`. */
    enable_notes: z.boolean().optional(),
    /** Whether channels exist on this workspace (ENABLE_CHANNELS). */
    enable_channels: z.boolean().optional(),
  }),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
