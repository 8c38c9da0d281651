import { z } from 'zod';

/** Longest memory, in characters. */
export const MEMORY_MAX_CHARS = 2000;

const Content = z.string().trim().min(1, 'must not be empty').max(MEMORY_MAX_CHARS, 'must be at most 2,000 characters');

/** A memory: something a person keeps about themselves for their chats ("I work in Lyon"). Only its owner ever reads it. */
export const Memory = z.object({
  id: z.string(),
  user_id: z.string(),
  content: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Memory = z.infer<typeof Memory>;

/** Body of POST /api/v1/memories/add and /{id}/update. */
export const MemoryForm = z.object({ content: Content });
export type MemoryForm = z.infer<typeof MemoryForm>;

/** Body of POST /api/v1/memories/query. */
export const MemoryQuery = z.object({
  content: z.string().trim().min(1, 'must not be empty').max(10_000, 'must be at most 10,000 characters'),
  /** How many to answer at most (default 1, as Open WebUI). */
  k: z.number().int().min(1, 'must be 1 or more').max(100, 'must be at most 100').nullish(),
});
export type MemoryQuery = z.infer<typeof MemoryQuery>;

/** Answer of POST /api/v1/memories/query: Open WebUI's vector search result shape (one query, so one inner list each). */
export const MemoryQueryResult = z.object({
  ids: z.array(z.array(z.string())),
  documents: z.array(z.array(z.string())),
  metadatas: z.array(z.array(z.object({ created_at: z.number().int(), updated_at: z.number().int() }))),
  /** Relevance of each, 0..1 (higher is closer). */
  distances: z.array(z.array(z.number())),
});
export type MemoryQueryResult = z.infer<typeof MemoryQueryResult>;

/** A memory an answer was given (the `memories` event of a completion stream). */
export const UsedMemory = z.object({ id: z.string(), content: z.string() });
export type UsedMemory = z.infer<typeof UsedMemory>;

/** Body of POST /api/v1/memories/suggest: the conversation so far. */
export const MemorySuggestRequest = z.object({
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(100_000) }))
    .min(1, 'must hold at least one message')
    .max(200),
  model: z.string().max(256).optional(),
});
export type MemorySuggestRequest = z.infer<typeof MemorySuggestRequest>;

/** Answer of POST /api/v1/memories/suggest: things to remember, not yet remembered. */
export const MemorySuggestions = z.object({ suggestions: z.array(z.string()) });
