import { rawRows, type Db } from '../platform/db/knex';
import { entityKey } from './extract/normalize';
import { CO_OCCURS, type ChunkExtraction } from './extract/types';

/** A row of `graph_state`. */
export interface GraphStateRow {
  knowledge_id: string;
  status: string;
  progress: number;
  error: string | null;
  user_id: string | null;
  ready_at: number | null;
  /** Entities and distinct typed relations, refreshed after each change. */
  entities: number;
  relations: number;
  created_at: number;
  updated_at: number;
}

/** An entity as retrieval and the view read it. */
export interface EntityRow {
  id: number;
  knowledge_id: string;
  key: string;
  name: string;
  type: string;
}

/** A neighbour of a seed entity and how often they are related (in how many chunks). */
export interface NeighbourRow {
  seed: number;
  other: number;
  weight: number;
}

/** A mention: which chunk names which entity, how often. */
export interface MentionRow {
  entity_id: number;
  chunk_id: number;
  count: number;
}

const SLICE = 200;

function slices<T>(items: readonly T[], size = SLICE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const marks = (n: number) => new Array<string>(n).fill('?').join(',');

/** knex access to the graph tables. */
export function createGraphRepo(db: Db) {
  /** How big the graph is: entities, and distinct typed relations between them. */
  async function sizes(knowledgeId: string): Promise<{ entities: number; relations: number }> {
    const e = await db('graph_entities').where({ knowledge_id: knowledgeId }).first<{ n: number }>(db.raw('count(*) as n'));
    const r = await db
      .from(
        db('graph_relations as r')
          .join('graph_entities as e', 'e.id', 'r.source_id')
          .where('e.knowledge_id', knowledgeId)
          .distinct('r.source_id', 'r.target_id', 'r.type')
          .as('d'),
      )
      .first<{ n: number }>(db.raw('count(*) as n'));
    return { entities: Number(e?.n ?? 0), relations: Number(r?.n ?? 0) };
  }

  return {
    async getState(knowledgeId: string): Promise<GraphStateRow | undefined> {
      return db<GraphStateRow>('graph_state').where({ knowledge_id: knowledgeId }).first();
    },
    /** States of these bases (missing = graph off). */
    async statesOf(knowledgeIds: readonly string[]): Promise<GraphStateRow[]> {
      if (knowledgeIds.length === 0) return [];
      return db<GraphStateRow>('graph_state').whereIn('knowledge_id', [...knowledgeIds]);
    },
    async withStatus(status: string): Promise<GraphStateRow[]> {
      return db<GraphStateRow>('graph_state').where({ status });
    },
    /** Creates the state row, or resets it to `row`'s values. */
    async putState(row: GraphStateRow): Promise<void> {
      await db('graph_state')
        .insert(row)
        .onConflict('knowledge_id')
        .merge({ status: row.status, progress: row.progress, error: row.error, user_id: row.user_id, entities: row.entities, relations: row.relations, updated_at: row.updated_at });
    },
    /** Updates the state; false when the graph was turned off (no row). */
    async updateState(knowledgeId: string, patch: Partial<Omit<GraphStateRow, 'knowledge_id'>>): Promise<boolean> {
      return (await db('graph_state').where({ knowledge_id: knowledgeId }).update(patch)) > 0;
    },
    /** Removes the whole graph of a base and its state. */
    async deleteGraph(knowledgeId: string): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('graph_chunks').where({ knowledge_id: knowledgeId }).delete();
        await trx('graph_entities').where({ knowledge_id: knowledgeId }).delete();
        await trx('graph_state').where({ knowledge_id: knowledgeId }).delete();
      });
    },
    /** Chunks of the base, and how many of them are already in the graph. */
    async chunkCounts(knowledgeId: string): Promise<{ total: number; done: number }> {
      const total = await db('chunks').where({ collection_id: knowledgeId }).first<{ n: number }>(db.raw('count(*) as n'));
      const done = await db('graph_chunks').where({ knowledge_id: knowledgeId }).first<{ n: number }>(db.raw('count(*) as n'));
      return { total: Number(total?.n ?? 0), done: Number(done?.n ?? 0) };
    },
    /** The next chunks of the base (ids above `afterId`) not yet in the graph, by id. */
    async pendingChunks(knowledgeId: string, afterId: number, limit: number): Promise<Array<{ id: number; text: string }>> {
      return db('chunks as c')
        .leftJoin('graph_chunks as g', 'g.chunk_id', 'c.id')
        .where('c.collection_id', knowledgeId)
        .andWhere('c.id', '>', afterId)
        .whereNull('g.chunk_id')
        .orderBy('c.id')
        .limit(limit)
        .select<Array<{ id: number; text: string }>>('c.id', 'c.text');
    },
    /**
     * Stores what a batch of chunks yielded, in one transaction: entities (merged by key),
     * mentions, relations, and the chunks as done. Chunks deleted meanwhile are skipped.
     */
    async storeBatch(knowledgeId: string, items: ReadonlyArray<{ chunkId: number; extraction: ChunkExtraction }>): Promise<void> {
      await db.transaction(async (trx) => {
        const alive = new Set<number>();
        for (const part of slices(items.map((i) => i.chunkId))) {
          const rows = await trx('chunks').whereIn('id', part).where({ collection_id: knowledgeId }).select<{ id: number }[]>('id');
          for (const r of rows) alive.add(r.id);
        }
        const live = items.filter((i) => alive.has(i.chunkId));
        const entities = new Map<string, { knowledge_id: string; key: string; name: string; type: string }>();
        for (const { extraction } of live) {
          for (const e of extraction.entities) {
            const key = entityKey(e.name);
            if (key && !entities.has(key)) entities.set(key, { knowledge_id: knowledgeId, key, name: e.name.slice(0, 200), type: e.type });
          }
        }
        for (const part of slices([...entities.values()], 100)) await trx('graph_entities').insert(part).onConflict(['knowledge_id', 'key']).ignore();
        const ids = new Map<string, number>();
        for (const part of slices([...entities.keys()])) {
          const rows = await trx('graph_entities').where({ knowledge_id: knowledgeId }).whereIn('key', part).select<Array<{ id: number; key: string }>>('id', 'key');
          for (const r of rows) ids.set(r.key, r.id);
        }
        const mentions = new Map<string, MentionRow>();
        const relations = new Map<string, { source_id: number; target_id: number; type: string; chunk_id: number }>();
        for (const { chunkId, extraction } of live) {
          for (const e of extraction.entities) {
            const id = ids.get(entityKey(e.name));
            if (id === undefined) continue;
            const k = `${id}:${chunkId}`;
            const m = mentions.get(k);
            if (m) m.count += 1;
            else mentions.set(k, { entity_id: id, chunk_id: chunkId, count: 1 });
          }
          for (const r of extraction.relations) {
            let a = ids.get(entityKey(r.source));
            let b = ids.get(entityKey(r.target));
            if (a === undefined || b === undefined || a === b) continue;
            // Co-occurrence has no direction: one row per pair.
            if (r.type === CO_OCCURS && a > b) [a, b] = [b, a];
            relations.set(`${a}:${b}:${r.type}:${chunkId}`, { source_id: a, target_id: b, type: r.type, chunk_id: chunkId });
            // A relation names both ends, so both are mentioned in the chunk.
            for (const id of [a, b]) if (!mentions.has(`${id}:${chunkId}`)) mentions.set(`${id}:${chunkId}`, { entity_id: id, chunk_id: chunkId, count: 1 });
          }
        }
        for (const part of slices([...mentions.values()], 150)) await trx('graph_mentions').insert(part).onConflict(['entity_id', 'chunk_id']).merge(['count']);
        for (const part of slices([...relations.values()], 150)) await trx('graph_relations').insert(part).onConflict(['source_id', 'target_id', 'type', 'chunk_id']).ignore();
        for (const part of slices(live.map((i) => ({ chunk_id: i.chunkId, knowledge_id: knowledgeId })))) await trx('graph_chunks').insert(part).onConflict('chunk_id').ignore();
      });
    },
    /** Deletes entities no chunk mentions any more (after files left the base). */
    async pruneOrphans(knowledgeId: string): Promise<number> {
      return db('graph_entities')
        .where({ knowledge_id: knowledgeId })
        .whereNotExists(db('graph_mentions').select(db.raw('1')).whereRaw('graph_mentions.entity_id = graph_entities.id'))
        .delete();
    },
    /** Counts the graph's entities and relations into its state row. */
    async refreshSizes(knowledgeId: string): Promise<void> {
      await db('graph_state').where({ knowledge_id: knowledgeId }).update(await sizes(knowledgeId));
    },
    /** How big the graph is: entities, and distinct typed relations between them. */
    sizes,
    /** Entities of these bases whose key is one of `keys`. */
    async entitiesByKeys(knowledgeIds: readonly string[], keys: readonly string[]): Promise<EntityRow[]> {
      if (knowledgeIds.length === 0 || keys.length === 0) return [];
      const out: EntityRow[] = [];
      for (const part of slices(keys)) out.push(...(await db<EntityRow>('graph_entities').whereIn('knowledge_id', [...knowledgeIds]).whereIn('key', part).select('id', 'knowledge_id', 'key', 'name', 'type')));
      return out;
    },
    /** The `perSeed` strongest neighbours of each seed (by the number of chunks relating them). */
    async neighbours(seedIds: readonly number[], perSeed: number): Promise<NeighbourRow[]> {
      if (seedIds.length === 0) return [];
      const ids = seedIds.slice(0, 200);
      const rows = await rawRows<NeighbourRow>(
        db,
        `WITH edges AS (
           SELECT source_id AS seed, target_id AS other, COUNT(DISTINCT chunk_id) AS weight FROM graph_relations WHERE source_id IN (${marks(ids.length)}) GROUP BY source_id, target_id
           UNION ALL
           SELECT target_id AS seed, source_id AS other, COUNT(DISTINCT chunk_id) AS weight FROM graph_relations WHERE target_id IN (${marks(ids.length)}) GROUP BY target_id, source_id
         ), summed AS (SELECT seed, other, SUM(weight) AS weight FROM edges GROUP BY seed, other),
         ranked AS (SELECT seed, other, weight, ROW_NUMBER() OVER (PARTITION BY seed ORDER BY weight DESC, other) AS rn FROM summed)
         SELECT seed, other, weight FROM ranked WHERE rn <= ?`,
        [...ids, ...ids, perSeed],
      );
      return rows.map((r) => ({ seed: Number(r.seed), other: Number(r.other), weight: Number(r.weight) }));
    },
    /** The `perEntity` chunks that mention each entity most. */
    async mentionsOf(entityIds: readonly number[], perEntity: number): Promise<MentionRow[]> {
      if (entityIds.length === 0) return [];
      const ids = entityIds.slice(0, 500);
      const rows = await rawRows<MentionRow>(
        db,
        `SELECT entity_id, chunk_id, count FROM (
           SELECT entity_id, chunk_id, count, ROW_NUMBER() OVER (PARTITION BY entity_id ORDER BY count DESC, chunk_id) AS rn
           FROM graph_mentions WHERE entity_id IN (${marks(ids.length)})
         ) AS ranked WHERE rn <= ?`,
        [...ids, perEntity],
      );
      return rows.map((r) => ({ entity_id: Number(r.entity_id), chunk_id: Number(r.chunk_id), count: Number(r.count) }));
    },
    /** Entities mentioned in any of these chunks. */
    async mentionsInChunks(chunkIds: readonly number[]): Promise<MentionRow[]> {
      const out: MentionRow[] = [];
      for (const part of slices(chunkIds)) out.push(...(await db<MentionRow>('graph_mentions').whereIn('chunk_id', part).select('entity_id', 'chunk_id', 'count')));
      return out;
    },
    /** The most mentioned entities of a base, with their mention counts. */
    async topEntities(knowledgeId: string, limit: number): Promise<Array<EntityRow & { mentions: number }>> {
      const rows = await db('graph_entities as e')
        .join('graph_mentions as m', 'm.entity_id', 'e.id')
        .where('e.knowledge_id', knowledgeId)
        .groupBy('e.id')
        .orderBy([{ column: 'mentions', order: 'desc' }, { column: 'e.id' }])
        .limit(limit)
        .select<Array<EntityRow & { mentions: number }>>('e.id', 'e.knowledge_id', 'e.key', 'e.name', 'e.type', db.raw('sum(m.count) as mentions'));
      return rows.map((r) => ({ ...r, mentions: Number(r.mentions) }));
    },
    /** Distinct typed relations among these entities, with how many chunks back each. */
    async relationsAmong(entityIds: readonly number[], limit: number): Promise<Array<{ source_id: number; target_id: number; type: string; weight: number }>> {
      if (entityIds.length === 0) return [];
      const ids = entityIds.slice(0, 450);
      const rows = await rawRows<{ source_id: number; target_id: number; type: string; weight: number }>(
        db,
        `SELECT source_id, target_id, type, COUNT(*) AS weight FROM graph_relations
         WHERE source_id IN (${marks(ids.length)}) AND target_id IN (${marks(ids.length)})
         GROUP BY source_id, target_id, type ORDER BY weight DESC LIMIT ?`,
        [...ids, ...ids, limit],
      );
      return rows.map((r) => ({ ...r, weight: Number(r.weight) }));
    },
    /** Chunk texts and files by id. */
    async chunkTexts(chunkIds: readonly number[]): Promise<Array<{ id: number; file_id: string; text: string }>> {
      const out: Array<{ id: number; file_id: string; text: string }> = [];
      for (const part of slices(chunkIds)) out.push(...(await db('chunks').whereIn('id', part).select<Array<{ id: number; file_id: string; text: string }>>('id', 'file_id', 'text')));
      return out;
    },
  };
}
export type GraphRepo = ReturnType<typeof createGraphRepo>;
