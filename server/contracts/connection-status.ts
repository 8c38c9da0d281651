import { z } from 'zod';

/** Answer of GET /api/v1/connections/status: enabled connections whose models could not be listed. */
export const ConnectionStatus = z.object({
  unreachable: z.array(
    z.object({
      /** `compat` (OpenAI-compatible), `local` (Ollama-style) or `builtin` (built-in models). */
      kind: z.enum(['compat', 'local', 'builtin']),
      /** Its place in the connection list (0-based). */
      index: z.number(),
      /** Its base URL: shown to admins only. */
      url: z.string().optional(),
      /** Why, for admins only. */
      reason: z.string().optional(),
    }),
  ),
});
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;
