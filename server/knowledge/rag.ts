import type { CompletionSource } from '../contracts/completions';
import type { ChatMessage } from '../providers';
import type { SearchHit } from '../retrieval';
import type { TasksService } from '../tasks';
import { attachedBudget, attachedSource, documentText, planAttached, type AttachedDocument } from './attached-files';
import { fileCollection, type KnowledgeCaller, type KnowledgeService } from './knowledge.service';

/** What the stage is given: who asks, the files and bases in play, and the conversation. */
export interface RagInput {
  user: KnowledgeCaller;
  /** Files and knowledge bases in play; `origin: 'model'` ones come with the model (not attached by the person). */
  files: ReadonlyArray<{ type: string; id: string; origin: string }>;
  /** The conversation as it will be sent (system prompt first). */
  messages: ChatMessage[];
  /** The model answering (task models may generate search queries for it). */
  modelId: string;
  /** The answering model's context window in tokens, when known: attached files are sent whole within it. */
  contextTokens?: number;
  signal: AbortSignal;
}

/** A knowledge base or file that was searched. */
export interface SearchedSource {
  id: string;
  name: string;
  type: 'collection' | 'file';
}

/**
 * What the stage found: the passages to give the model and cite, grouped by source, and the
 * knowledge bases (and files) that were searched with no passage above the relevance threshold —
 * never skipped in silence: the person and the model are told.
 */
export interface RagResult {
  sources: CompletionSource[];
  unmatched: SearchedSource[];
}

/** The text of the last user message. */
function lastUserText(messages: RagInput['messages']): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}

/** Most generated retrieval queries run for one answer (besides the user's message). */
const MAX_QUERIES = 3;

/**
 * The completion pipeline's retrieval stage: finds the knowledge bases and files the caller may
 * read among those in play, asks the task model for search queries (when that task is on; else
 * only the last user message is searched; the message is always searched too), searches them all, and returns the passages above the
 * relevance threshold as sources (the completion pipeline numbers them for the model).
 */
export function createRagStage(deps: { knowledge: KnowledgeService; tasks: Pick<TasksService, 'queries'> }): (input: RagInput) => Promise<RagResult> {
  return async (input) => {
    const all = await deps.knowledge.searchable(input.user, input.files);
    if (all.length === 0) return { sources: [], unmatched: [] };
    // Files attached to the message or the chat always reach the model; the threshold is for knowledge search.
    const attachedIds = new Set(input.files.filter((f) => f.type === 'file' && f.origin !== 'model').map((f) => fileCollection(f.id)));
    const attached = all.filter((t) => t.type === 'file' && attachedIds.has(t.collectionId));
    const targets = all.filter((t) => !attached.includes(t));
    const attachedDocs: AttachedDocument[] = [];
    for (const t of attached) {
      const fileId = t.collectionId.slice('file-'.length);
      const text = documentText(await deps.knowledge.fileChunks(fileId));
      if (text.trim() !== '') attachedDocs.push({ fileId, name: t.name, text });
    }
    const plan = planAttached(attachedDocs, attachedBudget(input.contextTokens));
    const needsSearch = targets.length > 0 || plan.some((p) => p.mode === 'passages');
    const generated = needsSearch ? await deps.tasks.queries(input.user, input.messages, 'retrieval', { model: input.modelId, signal: input.signal }) : [];
    // The user's own words are always searched too: a generated query can miss, it cannot hide them.
    const queries = [...new Set([lastUserText(input.messages), ...generated].filter((q) => q.trim() !== ''))].slice(0, MAX_QUERIES + 1);

    const attachedSources: CompletionSource[] = [];
    for (const { doc, mode, chars } of plan) {
      const hits = new Map<number, SearchHit>();
      if (mode === 'passages') {
        for (const query of queries) {
          for (const hit of await deps.knowledge.search([fileCollection(doc.fileId)], query, { signal: input.signal, threshold: 0, k: 50 })) {
            if ((hits.get(hit.chunkId)?.score ?? -1) < hit.score) hits.set(hit.chunkId, hit);
          }
        }
      }
      attachedSources.push(attachedSource(doc, mode, chars, [...hits.values()].sort((a, b) => b.score - a.score)));
    }
    const withAttached = (found: CompletionSource[], unmatched: SearchedSource[] = []): RagResult => ({ sources: [...attachedSources, ...found], unmatched });
    if (targets.length === 0 || queries.length === 0) return withAttached([]);

    const best = new Map<number, SearchHit>();
    let k = 0;
    for (const query of queries) {
      const hits = await deps.knowledge.search(
        targets.map((t) => t.collectionId),
        query,
        { signal: input.signal },
      );
      k = Math.max(k, hits.length);
      for (const hit of hits) if ((best.get(hit.chunkId)?.score ?? -1) < hit.score) best.set(hit.chunkId, hit);
    }
    const matched = new Set([...best.values()].map((hit) => hit.collectionId));
    const unmatched = targets.filter((t) => !matched.has(t.collectionId)).map((t) => ({ id: t.type === 'file' ? t.collectionId.slice('file-'.length) : t.collectionId, name: t.name, type: t.type }));
    const hits = [...best.values()].sort((a, b) => b.score - a.score).slice(0, Math.max(k, 1));
    if (hits.length === 0) return withAttached([], unmatched);

    const byCollection = new Map(targets.map((t) => [t.collectionId, t]));
    const sources = new Map<string, CompletionSource>();
    for (const hit of hits) {
      const target = byCollection.get(hit.collectionId)!;
      let source = sources.get(hit.collectionId);
      if (!source) {
        source = { source: { id: target.type === 'file' ? hit.fileId : hit.collectionId, name: target.name, type: target.type }, document: [], metadata: [], distances: [] };
        sources.set(hit.collectionId, source);
      }
      source.document.push(hit.text);
      source.metadata.push({ ...hit.meta, file_id: hit.fileId, chunk_id: hit.chunkId, relevance: hit.score });
      source.distances!.push(hit.score);
    }
    return withAttached([...sources.values()], unmatched);
  };
}
