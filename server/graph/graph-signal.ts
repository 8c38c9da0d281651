import type { RetrievalSignal, SearchHit } from '../retrieval';
import { keyGrams } from './extract/normalize';
import type { GraphRepo, MentionRow } from './graph.repo';

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
/** Entities whose neighbourhood is cached per base (the cache is dropped whenever the graph changes). */
const CACHED_PER_BASE = 2000;

/** What one entity brings: the chunks naming it, and its strongest neighbours with the chunks naming them. */
interface Neighbourhood {
  mentions: MentionRow[];
  /** Neighbour id → link strength 0.5..1 (relative to the entity's strongest link). */
  neighbours: Map<number, number>;
  neighbourMentions: MentionRow[];
}

/**
 * Graph-aware retrieval as a signal of the retrieval service: entities named in the query are
 * looked up in the graphs of the searched bases that are ready; they carry the relevance of the
 * best hybrid hit that mentions them, pass it to the chunks that mention them and, one hop
 * further (× 0.9, less for weaker links), to the chunks of their strongest neighbours. So a
 * chunk that only shares an entity with a good hit (another document about the same person)
 * joins the results, ranked just below that hit. Fusion: max(hybrid, graph) per chunk, so the
 * graph only ever adds relevance and the relevance threshold keeps its meaning.
 * Neighbourhoods are cached per base until `invalidate(base)` (called on every graph change).
 */
export function createGraphSignal(repo: GraphRepo) {
  const usable = new Map<string, boolean>();
  const cache = new Map<string, Map<number, Neighbourhood>>();
  // Bumped on every change, so a read that raced with a change is not cached.
  let generation = 0;

  async function usableBases(collectionIds: readonly string[]): Promise<string[]> {
    const unknown = collectionIds.filter((id) => !usable.has(id));
    if (unknown.length === 0) return collectionIds.filter((id) => usable.get(id));
    const before = generation;
    const states = new Map((await repo.statesOf(unknown)).map((s) => [s.knowledge_id, s]));
    const fresh = new Map(collectionIds.map((id) => [id, usable.get(id) ?? false]));
    for (const id of unknown) {
      const s = states.get(id);
      const ok = s !== undefined && s.ready_at !== null && (s.status === 'ready' || s.status === 'building');
      fresh.set(id, ok);
      if (generation === before) usable.set(id, ok);
    }
    return collectionIds.filter((id) => fresh.get(id));
  }

  async function neighbourhoods(seeds: ReadonlyArray<{ id: number; knowledge_id: string }>): Promise<Map<number, Neighbourhood>> {
    const out = new Map<number, Neighbourhood>();
    const missing = seeds.filter((s) => {
      const hit = cache.get(s.knowledge_id)?.get(s.id);
      if (hit) out.set(s.id, hit);
      return !hit;
    });
    if (missing.length === 0) return out;
    const before = generation;
    const ids = missing.map((s) => s.id);
    const mentions = await repo.mentionsOf(ids, SEED_CHUNKS);
    const edges = await repo.neighbours(ids, NEIGHBOURS);
    const neighbourMentions = await repo.mentionsOf([...new Set(edges.map((e) => e.other))], NEIGHBOUR_CHUNKS);
    for (const seed of missing) {
      const own = edges.filter((e) => e.seed === seed.id);
      const strongest = own.reduce((m, e) => Math.max(m, e.weight), 1);
      const neighbours = new Map(own.map((e) => [e.other, 0.5 + (0.5 * e.weight) / strongest]));
      const n: Neighbourhood = { mentions: mentions.filter((m) => m.entity_id === seed.id), neighbours, neighbourMentions: neighbourMentions.filter((m) => neighbours.has(m.entity_id)) };
      out.set(seed.id, n);
      if (generation !== before) continue;
      let perBase = cache.get(seed.knowledge_id);
      if (!perBase) cache.set(seed.knowledge_id, (perBase = new Map()));
      if (perBase.size >= CACHED_PER_BASE) perBase.delete(perBase.keys().next().value!);
      perBase.set(seed.id, n);
    }
    return out;
  }

  const signal: RetrievalSignal = {
    name: 'knowledge-graph',
    weight: WEIGHT,
    async score({ query, collectionIds, candidates }: { query: string; collectionIds: readonly string[]; candidates: readonly SearchHit[] }): Promise<Map<number, number>> {
      const scores = new Map<number, number>();
      const bases = await usableBases(collectionIds);
      if (bases.length === 0) return scores;
      const seeds = await repo.entitiesByKeys(bases, keyGrams(query));
      if (seeds.length === 0) return scores;

      const hybrid = new Map(candidates.map((c) => [c.chunkId, c.score]));
      const best = candidates.reduce((m, c) => Math.max(m, c.score), 0);
      const hoods = await neighbourhoods(seeds);
      const seedIds = new Set(seeds.map((s) => s.id));
      const bump = (chunkId: number, value: number) => {
        if (value > (scores.get(chunkId) ?? 0)) scores.set(chunkId, value);
      };
      for (const seed of seeds) {
        const hood = hoods.get(seed.id)!;
        // A query entity is as relevant as the best hybrid hit naming it.
        let activation = -1;
        for (const m of hood.mentions) activation = Math.max(activation, hybrid.get(m.chunk_id) ?? -1);
        if (activation < 0) activation = candidates.length > 0 ? best * UNSEEN_SEED : NO_HITS_SEED;
        for (const m of hood.mentions) bump(m.chunk_id, activation);
        for (const m of hood.neighbourMentions) {
          if (seedIds.has(m.entity_id)) continue;
          bump(m.chunk_id, activation * HOP * hood.neighbours.get(m.entity_id)!);
        }
      }
      for (const [chunkId, value] of scores) {
        const h = hybrid.get(chunkId);
        if (h !== undefined) scores.set(chunkId, Math.max(h, value));
      }
      return scores;
    },
  };

  return {
    signal,
    /** Forgets what is cached about a base's graph (it changed, or was turned on or off), about every base when no id is given. */
    invalidate(knowledgeId?: string): void {
      generation += 1;
      if (knowledgeId === undefined) {
        usable.clear();
        cache.clear();
        return;
      }
      usable.delete(knowledgeId);
      cache.delete(knowledgeId);
    },
  };
}
