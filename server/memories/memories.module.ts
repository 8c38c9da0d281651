import type { Clock } from '../platform/clock';
import { dialectOf, type Db } from '../platform/db/knex';
import { watchTableChanges } from '../platform/db/table-changes';
import type { Logger } from '../platform/log';
import type { PermissionsService } from '../permissions';
import type { Embedder } from '../retrieval';
import { createMemoriesRepo } from './memories.repo';
import { createMemoriesService } from './memories.service';
import { createMemoryIndexes } from './memory-indexes';
import { createMemoryPlug } from './memory-plug';

/**
 * The memories domain: the service over each person's own memories, their search indexes
 * (following other instances' writes on PostgreSQL) and the completion pipeline's memory plug.
 */
export function createMemories(deps: { db: Db; permissions: PermissionsService; embedder(): Promise<Embedder>; instance: string; clock: Clock; log: Logger }) {
  const repo = createMemoriesRepo(deps.db);
  const indexes = createMemoryIndexes({ repo, embedder: deps.embedder, log: deps.log });
  const service = createMemoriesService({ repo, indexes, permissions: deps.permissions, clock: deps.clock });
  if (dialectOf(deps.db) === 'postgres') {
    watchTableChanges(deps.db, (payload) => {
      const [table, writer, ...rest] = payload.split('|');
      if (table !== 'memories' || writer === deps.instance) return;
      indexes.forget(writer === undefined ? undefined : rest.join('|'));
    });
  }
  return { service, indexes, plug: createMemoryPlug(service) };
}
export type Memories = ReturnType<typeof createMemories>;
