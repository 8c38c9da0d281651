import { EventEmitter } from 'node:events';
import type { GraphStatusName, GraphStatusResponse, GraphToggleResponse } from '../contracts/graph';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { RealtimeHub } from '../realtime';
import type { GraphBuilder } from './graph-builder';
import type { GraphRepo } from './graph.repo';
import { graphView, type GraphView } from './graph-view';

/** The event that ends open status streams. */
const CLOSE = Symbol('close');

/** Who is asking. */
export interface GraphCaller {
  id: string;
  role: 'pending' | 'user' | 'admin';
}

/** The knowledge domain's access check: the base if the caller may read (404) or write (403) it. */
export type KnowledgeAccess = (caller: GraphCaller, knowledgeId: string, mode: 'read' | 'write') => Promise<{ id: string; name: string; user_id: string }>;

/**
 * The knowledge graph of knowledge bases: turning it on and off, its status (also as a stream
 * of changes), the data of the visual view, and keeping it in step with the base's files.
 */
export function createGraphService(deps: {
  repo: GraphRepo;
  builder: GraphBuilder;
  access: KnowledgeAccess;
  /** File names by id, for the view's source list. */
  fileNames: (ids: string[]) => Promise<Map<string, string>>;
  /** Called (synchronously) whenever a base's graph or its state changes. */
  changed: (knowledgeId: string) => void;
  realtime: RealtimeHub;
  clock: Clock;
  log: Logger;
}) {
  const { repo, builder, access, realtime, clock, log } = deps;
  const events = new EventEmitter();
  events.setMaxListeners(0);

  async function statusOf(knowledgeId: string): Promise<GraphStatusResponse> {
    const state = await repo.getState(knowledgeId);
    if (!state) return { status: 'disabled', progress: 0, entities: 0, relations: 0 };
    return {
      status: state.status as GraphStatusName,
      progress: Math.round(state.progress),
      ...(state.status === 'failed' && state.error ? { error: state.error } : {}),
      entities: state.entities,
      relations: state.relations,
    };
  }

  /** Tells stream subscribers and the owner's open windows what changed. */
  function publish(knowledgeId: string, userId?: string | null): void {
    deps.changed(knowledgeId);
    void (async () => {
      const status = await statusOf(knowledgeId);
      events.emit(knowledgeId, status);
      const owner = userId ?? (await repo.getState(knowledgeId))?.user_id;
      if (owner) realtime.emitToUser(owner, 'knowledge:graph', { knowledge_id: knowledgeId, ...status });
    })().catch((error: unknown) => log.warn({ err: error }, 'publishing the graph status failed'));
  }

  return {
    publish,

    /** Another instance changed the base's graph: this instance's open status streams hear of it (its owner's windows already did). */
    relay(knowledgeId: string): void {
      if (events.listenerCount(knowledgeId) === 0) return;
      statusOf(knowledgeId)
        .then((status) => events.emit(knowledgeId, status))
        .catch((error: unknown) => log.warn({ err: error }, 'relaying the graph status failed'));
    },

    /** Turns the graph on (starts a background build) or off (stops the build, removes the graph). Needs write access. */
    async toggle(caller: GraphCaller, knowledgeId: string, enabled: boolean): Promise<GraphToggleResponse> {
      await access(caller, knowledgeId, 'write');
      const state = await repo.getState(knowledgeId);
      if (enabled) {
        if (state && (state.status === 'building' || state.status === 'ready')) {
          return { status: state.status, message: state.status === 'ready' ? 'The knowledge graph is on and up to date' : 'The knowledge graph is already being built' };
        }
        const now = clock.now();
        await repo.putState({ knowledge_id: knowledgeId, status: 'building', progress: 0, error: null, user_id: caller.id, ready_at: null, entities: 0, relations: 0, created_at: now, updated_at: now });
        publish(knowledgeId, caller.id);
        await builder.schedule(knowledgeId);
        return { status: 'building', message: 'Building the knowledge graph in the background' };
      }
      await builder.stop(knowledgeId);
      await repo.deleteGraph(knowledgeId);
      publish(knowledgeId, state?.user_id ?? caller.id);
      return { status: 'disabled', message: state ? 'The knowledge graph was turned off and removed' : 'The knowledge graph is off' };
    },

    /** The graph's status. Needs read access. */
    async status(caller: GraphCaller, knowledgeId: string): Promise<GraphStatusResponse> {
      await access(caller, knowledgeId, 'read');
      return statusOf(knowledgeId);
    },

    /** Calls `listener` with every status change of the base's graph until the returned function is called; `onClose` when the service stops. */
    subscribe(knowledgeId: string, listener: (status: GraphStatusResponse) => void, onClose: () => void): () => void {
      events.on(knowledgeId, listener);
      events.on(CLOSE, onClose);
      return () => {
        events.off(knowledgeId, listener);
        events.off(CLOSE, onClose);
      };
    },

    /** Ends every open status stream (shutdown). */
    closeStreams(): void {
      events.emit(CLOSE);
    },

    /** What the visual view shows: the most mentioned entities, their relations and source chunks. Needs read access. */
    async view(caller: GraphCaller, knowledgeId: string): Promise<GraphView> {
      const base = await access(caller, knowledgeId, 'read');
      return graphView(repo, deps.fileNames, base, await statusOf(knowledgeId));
    },

    /** New chunks in a base with the graph on: fold them in. */
    async fileIndexed(knowledgeId: string | null): Promise<void> {
      if (!knowledgeId) return;
      const state = await repo.getState(knowledgeId);
      if (!state || (state.status !== 'building' && state.status !== 'ready')) return;
      if (state.status === 'ready') {
        const { total, done } = await repo.chunkCounts(knowledgeId);
        await repo.updateState(knowledgeId, { status: 'building', progress: total > 0 ? Math.min(99, Math.floor((100 * done) / total)) : 0, updated_at: clock.now() });
        publish(knowledgeId);
      }
      await builder.schedule(knowledgeId);
    },

    /** A file left a base: its mentions went with its chunks; drop entities nothing mentions now. */
    async fileRemoved(knowledgeId: string): Promise<void> {
      const state = await repo.getState(knowledgeId);
      if (!state) {
        // The base itself may be gone: make sure no build keeps running for it.
        deps.changed(knowledgeId);
        await builder.stop(knowledgeId);
        return;
      }
      await repo.pruneOrphans(knowledgeId);
      await repo.refreshSizes(knowledgeId);
      publish(knowledgeId);
    },

    /** Resumes builds a previous run left unfinished. */
    async resume(): Promise<number> {
      const rows = await repo.withStatus('building');
      for (const row of rows) await builder.schedule(row.knowledge_id, false);
      return rows.length;
    },
  };
}
export type GraphService = ReturnType<typeof createGraphService>;
