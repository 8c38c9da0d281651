import { z } from 'zod';

/** POST /api/knowledge/{id}/graph/toggle. */
export const GraphToggleRequest = z.object({
  /** true: build the graph (and keep it current); false: stop a running build and remove the graph. */
  enabled: z.boolean(),
});
export type GraphToggleRequest = z.infer<typeof GraphToggleRequest>;

/**
 * Where a knowledge base's graph is: `disabled` (off, nothing stored), `building` (extraction
 * running; also while new files are folded in), `ready`, or `failed` (see `error`).
 */
export const GraphStatusName = z.enum(['disabled', 'building', 'ready', 'failed']);
export type GraphStatusName = z.infer<typeof GraphStatusName>;

/** Answer of graph/toggle. */
export const GraphToggleResponse = z.object({
  status: GraphStatusName,
  /** What happened, in words. */
  message: z.string(),
});
export type GraphToggleResponse = z.infer<typeof GraphToggleResponse>;

/** GET graph/status (stream=false), and the payload of each event of the stream. */
export const GraphStatusResponse = z.object({
  status: GraphStatusName,
  /** 0–100: share of the base's chunks already in the graph; never goes down during a build. */
  progress: z.number(),
  /** Why the build failed (only when `failed`). */
  error: z.string().optional(),
  /** Entities and relations stored so far. */
  entities: z.number(),
  relations: z.number(),
});
export type GraphStatusResponse = z.infer<typeof GraphStatusResponse>;

/** Query of GET graph/status. */
export const GraphStatusQuery = z.object({
  /** `true` selects a Server-Sent Events stream of status events until the build is done. */
  stream: z.enum(['true', 'false'], { message: "must be 'true' or 'false'" }).default('false'),
  /** A JWT (or API key) for EventSource clients that cannot send headers. */
  token: z.string().min(1, 'must not be empty').max(4096).optional(),
});
export type GraphStatusQuery = z.infer<typeof GraphStatusQuery>;
