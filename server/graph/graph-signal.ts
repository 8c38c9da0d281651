import type { RetrievalSignal, SearchHit } from '../retrieval';
import { keyGrams } from './extract/normalize';
import type { GraphRepo } from './graph.repo';

/**
 * The retrieval service blends `(1 − weight) × hybrid + weight × signal`; this signal does its own
 * fusion (the larger of the hybrid relevance and the relevance the graph passes on, both on the
 * hybrid scale), so it takes the whole weight.
 */
const WEIGHT = 1;
/** Neighbours followed per query entity. */
const NEIGHBOURS = 8;
/** Chunks taken per query entity, and per neighbour. */
const SEED_CHUNKS = 30;
const NEIGHBOUR_CHUNKS = 10;
/** Relevance kept over one hop. */
const HOP = 0.9;
/** Activation of a query entity that no hybrid hit mentions, relative to the best hit (or absolute with none). */
const UNSEEN_SEED = 0.8;
const NO_HITS_SEED = 0.5;

/**
 * Graph-aware retrieval as a signal of the retrieval service: entities named in the query are
 * looked up in the graphs of the searched bases that are ready; they carry the relevance of the
 * best hybrid hit that mentions them, pass it to the chunks that mention them and, one hop
 * further (× 0.9, less for weaker links), to the chunks of their strongest neighbours. So a
 * chunk that only shares an entity with a good hit (another document about the same person)
 * joins the results, ranked just below that hit. Fusion: max(hybrid, graph) per chunk, so the
 * graph only ever adds relevance and the relevance threshold keeps its meaning.
 */
export function createGraphSignal(repo: GraphRepo): RetrievalSignal {
  return {
    name: 'knowledge-graph',
    weight: WEIGHT,
    async score({ query, collectionIds, candidates }: { query: string; collectionIds: readonly string[]; candidates: readonly SearchHit[] }): Promise<Map<number, number>> {
      const scores = new Map<number, number>();
      const states = await repo.statesOf(collectionIds);
      const usable = states.filter((s) => s.ready_at !== null && (s.status === 'ready' || s.status === 'building')).map((s) => s.knowledge_id);
      if (usable.length === 0) return scores;
      const seeds = await repo.entitiesByKeys(usable, keyGrams(query));
      if (seeds.length === 0) return scores;

      const hybrid = new Map(candidates.map((c) => [c.chunkId, c.score]));
      const best = candidates.reduce((m, c) => Math.max(m, c.score), 0);
      const seedIds = seeds.map((s) => s.id);
      const seedMentions = await repo.mentionsOf(seedIds, SEED_CHUNKS);
      const activation = new Map<number, number>();
      for (const m of seedMentions) {
        const h = hybrid.get(m.chunk_id);
        if (h !== undefined) activation.set(m.entity_id, Math.max(activation.get(m.entity_id) ?? 0, h));
      }
      for (const id of seedIds) if (!activation.has(id)) activation.set(id, candidates.length > 0 ? best * UNSEEN_SEED : NO_HITS_SEED);

      const bump = (chunkId: number, value: number) => {
        if (value > (scores.get(chunkId) ?? 0)) scores.set(chunkId, value);
      };
      for (const m of seedMentions) bump(m.chunk_id, activation.get(m.entity_id)!);

      const edges = await repo.neighbours(seedIds, NEIGHBOURS);
      const strongest = new Map<number, number>();
      for (const e of edges) strongest.set(e.seed, Math.max(strongest.get(e.seed) ?? 0, e.weight));
      const seedSet = new Set(seedIds);
      const reach = new Map<number, number>();
      for (const e of edges) {
        if (seedSet.has(e.other)) continue;
        const value = activation.get(e.seed)! * HOP * (0.5 + (0.5 * e.weight) / strongest.get(e.seed)!);
        reach.set(e.other, Math.max(reach.get(e.other) ?? 0, value));
      }
      for (const m of await repo.mentionsOf([...reach.keys()], NEIGHBOUR_CHUNKS)) bump(m.chunk_id, reach.get(m.entity_id)!);

      for (const [chunkId, value] of scores) {
        const h = hybrid.get(chunkId);
        if (h !== undefined) scores.set(chunkId, Math.max(h, value));
      }
      return scores;
    },
  };
}
