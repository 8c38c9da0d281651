export { createMemories, type Memories } from './memories.module';
export { memoriesRoutes, type MemoriesRoutesDeps } from './memories.routes';
export type { MemoriesService } from './memories.service';
export { MEMORY_THRESHOLD } from './memory-indexes';
