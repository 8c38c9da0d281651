import { z } from 'zod';
import { Memory, MemoryForm, MemoryQuery, MemoryQueryResult, MemorySuggestions, MemorySuggestRequest } from '../contracts/memories';
import { route, type Routes } from '../platform/http/route';
import { memoriesForbidden, type MemoriesService } from './memories.service';

/** What the memories routes call: the service, and the task model for suggestions. */
export interface MemoriesRoutesDeps {
  memories: MemoriesService;
  suggest(caller: { id: string; role: 'admin' | 'user' | 'pending' }, messages: MemorySuggestRequest['messages'], known: string[], model?: string): Promise<string[]>;
}

const GUARD = { guard: 'user', permission: 'features.memories', refused: memoriesForbidden } as const;

/** Memories on Open WebUI's paths: always the caller's own. Mounted at `/api/v1/memories`. */
export function memoriesRoutes(deps: MemoriesRoutesDeps): Routes {
  const { memories } = deps;
  return [
    route({ method: 'get', path: '/', ...GUARD, summary: "The caller's memories, oldest first", response: z.array(Memory) }, ({ user }) => memories.list(user)),
    route({ method: 'post', path: '/add', ...GUARD, body: MemoryForm, summary: 'Remember something', response: Memory }, ({ user, body }) => memories.add(user, body.content)),
    route(
      { method: 'post', path: '/query', ...GUARD, body: MemoryQuery, summary: "The caller's memories closest to a text (hybrid search)", response: MemoryQueryResult },
      ({ user, body }) => memories.query(user, body.content, body.k ?? 1),
    ),
    route(
      { method: 'post', path: '/suggest', ...GUARD, body: MemorySuggestRequest, summary: 'Things worth remembering from a conversation, proposed by the task model', response: MemorySuggestions },
      async ({ user, body }) => ({ suggestions: await deps.suggest(user, body.messages, await memories.contents(user), body.model) }),
    ),
    route({ method: 'delete', path: '/delete/user', ...GUARD, summary: 'Forget every memory of the caller', response: z.boolean() }, async ({ user }) => {
      await memories.deleteAll(user);
      return true;
    }),
    route({ method: 'post', path: '/:id/update', ...GUARD, body: MemoryForm, summary: 'Change a memory', response: Memory }, ({ user, params, body }) => memories.update(user, params.id, body.content)),
    route({ method: 'delete', path: '/:id', ...GUARD, summary: 'Forget a memory', response: z.boolean() }, async ({ user, params }) => {
      await memories.delete(user, params.id);
      return true;
    }),
  ];
}
