import type { GraphStatusResponse } from '../contracts/graph';
import type { GraphRepo } from './graph.repo';

/** Most entities drawn (the most mentioned ones). */
const MAX_NODES = 400;
/** Most relations drawn. */
const MAX_LINKS = 3000;
/** Source chunks listed per entity. */
const CHUNKS_PER_NODE = 5;
/** Longest source excerpt shown. */
const SNIPPET = 700;

/** What the visual view of a base's graph shows. */
export interface GraphView {
  base: { id: string; name: string };
  status: GraphStatusResponse;
  nodes: Array<{ id: number; name: string; type: string; mentions: number; chunks: number[] }>;
  links: Array<{ source: number; target: number; type: string; weight: number }>;
  /** Source chunks by id: file id and name, and an excerpt. */
  chunks: Record<string, { file_id: string; file: string; text: string }>;
  /** True when the graph holds more entities than are drawn. */
  truncated: boolean;
}

/** Reads the view of a base's graph: the most mentioned entities, the relations among them, and where they are mentioned. */
export async function graphView(
  repo: GraphRepo,
  fileNames: (ids: string[]) => Promise<Map<string, string>>,
  base: { id: string; name: string },
  status: GraphStatusResponse,
): Promise<GraphView> {
  const entities = await repo.topEntities(base.id, MAX_NODES);
  const ids = entities.map((e) => e.id);
  const relations = await repo.relationsAmong(ids, MAX_LINKS);
  const mentions = await repo.mentionsOf(ids, CHUNKS_PER_NODE);
  const byEntity = new Map<number, number[]>();
  for (const m of mentions) byEntity.set(m.entity_id, [...(byEntity.get(m.entity_id) ?? []), m.chunk_id]);
  const texts = await repo.chunkTexts([...new Set(mentions.map((m) => m.chunk_id))]);
  const names = await fileNames([...new Set(texts.map((t) => t.file_id))]);
  const chunks: GraphView['chunks'] = {};
  for (const t of texts) chunks[String(t.id)] = { file_id: t.file_id, file: names.get(t.file_id) ?? t.file_id, text: t.text.length > SNIPPET ? `${t.text.slice(0, SNIPPET)}…` : t.text };
  return {
    base: { id: base.id, name: base.name },
    status,
    nodes: entities.map((e) => ({ id: e.id, name: e.name, type: e.type, mentions: e.mentions, chunks: byEntity.get(e.id) ?? [] })),
    links: relations.map((r) => ({ source: r.source_id, target: r.target_id, type: r.type, weight: r.weight })),
    chunks,
    truncated: status.entities > entities.length,
  };
}
