import type { Logger } from '../platform/log';
import { blobOf, DEFAULT_LANGUAGE, detectLanguage, RecordIndex, vectorOf, type Embedder } from '../retrieval';
import type { MemoriesRepo, MemoryRow } from './memories.repo';

/** A memory as recall answers it. */
export interface RecalledMemory {
  id: string;
  content: string;
  created_at: number;
  updated_at: number;
  /** Relevance to the query, 0..1. */
  score: number;
}

/** Hybrid relevance a memory needs to join an answer's context (BM25 and cosine blended as knowledge search does). */
export const MEMORY_THRESHOLD = 0.3;

/** People whose memory index stays in memory at once (the least recently used goes first). */
const MAX_USERS = 64;

interface UserIndex {
  index: RecordIndex;
  memories: Map<string, Omit<RecalledMemory, 'score'>>;
  /** The embedder its vectors come from. */
  model: string;
}

/** A vector for `text` and the model that made it, or null when the embedder failed (text search still finds it). */
export type EmbedResult = { vector: Float32Array; model: string } | null;

/**
 * One small hybrid index per person over their memories (Orama, with the analyser of the language
 * their memories are written in), built on first use from the stored embeddings and kept warm for
 * the most recently active people. Memories are embedded when written; one stored without an
 * embedding, or by another model, is embedded when its owner's index is built.
 */
export function createMemoryIndexes(deps: { repo: MemoriesRepo; embedder(): Promise<Embedder>; log: Logger }) {
  const loaded = new Map<string, Promise<UserIndex>>();

  async function embedder(): Promise<Embedder | undefined> {
    try {
      return await deps.embedder();
    } catch (error) {
      deps.log.warn({ err: error }, 'no embedder for memories: text search only');
      return undefined;
    }
  }

  async function embedMany(texts: readonly string[], signal?: AbortSignal): Promise<{ vectors: Float32Array[]; model: string } | null> {
    const engine = await embedder();
    if (!engine || texts.length === 0) return null;
    try {
      return { vectors: await engine.embed(texts, signal), model: engine.model };
    } catch (error) {
      if (signal?.aborted) throw error;
      deps.log.warn({ err: error }, 'embedding memories failed: text search only');
      return null;
    }
  }

  async function build(userId: string): Promise<UserIndex> {
    const rows = await deps.repo.ofUser(userId);
    const engine = await embedder();
    const model = engine?.model ?? '';
    const vectors = new Map<string, Float32Array>();
    const missing: MemoryRow[] = [];
    for (const row of rows) {
      const vector = row.model === model ? vectorOf(row.embedding) : null;
      if (vector) vectors.set(row.id, vector);
      else missing.push(row);
    }
    if (engine && missing.length > 0) {
      const made = await embedMany(missing.map((r) => r.content));
      if (made) {
        missing.forEach((row, i) => vectors.set(row.id, made.vectors[i]!));
        await deps.repo.setEmbeddings(userId, missing.map((row, i) => ({ id: row.id, embedding: blobOf(made.vectors[i]!), model: made.model })));
      }
    }
    const dims = engine?.dims ?? vectors.values().next().value?.length ?? 0;
    const language = detectLanguage(rows.map((r) => r.content).join('\n')) ?? DEFAULT_LANGUAGE;
    const index = RecordIndex.create({ dims, language });
    const memories = new Map<string, Omit<RecalledMemory, 'score'>>();
    for (const row of rows) {
      index.put({ key: row.id, text: row.content, vector: vectors.get(row.id) ?? null });
      memories.set(row.id, { id: row.id, content: row.content, created_at: row.created_at, updated_at: row.updated_at });
    }
    return { index, memories, model };
  }

  /** The person's index, built on first use; using it makes it the most recent. */
  function indexOf(userId: string): Promise<UserIndex> {
    let found = loaded.get(userId);
    if (found) loaded.delete(userId);
    else {
      found = build(userId);
      found.catch(() => loaded.get(userId) === found && loaded.delete(userId));
    }
    loaded.set(userId, found);
    if (loaded.size > MAX_USERS) loaded.delete(loaded.keys().next().value!);
    return found;
  }

  /** Runs `change` on the person's index when it is in memory (one built later reads the database). */
  async function whenLoaded(userId: string, change: (user: UserIndex) => void): Promise<void> {
    const found = loaded.get(userId);
    if (!found) return;
    const user = await found.catch(() => undefined);
    if (!user) return;
    change(user);
    if (user.index.wantsCompaction) loaded.delete(userId);
  }

  return {
    /** Embeds a memory's text for storing (null when the embedder is unreachable). */
    async embed(text: string): Promise<EmbedResult> {
      const made = await embedMany([text]);
      return made ? { vector: made.vectors[0]!, model: made.model } : null;
    },

    /** A memory was written: its owner's index (when loaded) holds it from now on. */
    async put(row: Omit<RecalledMemory, 'score'> & { user_id: string }, embedded: EmbedResult): Promise<void> {
      await whenLoaded(row.user_id, (user) => {
        if (embedded && embedded.model !== user.model) {
          loaded.delete(row.user_id); // another embedder since the build: build again
          return;
        }
        user.index.put({ key: row.id, text: row.content, vector: embedded?.vector ?? null });
        user.memories.set(row.id, { id: row.id, content: row.content, created_at: row.created_at, updated_at: row.updated_at });
      });
    },

    async remove(userId: string, id: string): Promise<void> {
      await whenLoaded(userId, (user) => {
        user.index.delete(id);
        user.memories.delete(id);
      });
    },

    /** Drops a person's index (all their memories went, or another instance changed them). */
    forget(userId?: string): void {
      if (userId === undefined) loaded.clear();
      else loaded.delete(userId);
    },

    /** The person's memories most relevant to `text`, best first, at most `k`; with `threshold`, only those relevant at least that much. */
    async search(userId: string, text: string, k: number, threshold?: number, signal?: AbortSignal): Promise<RecalledMemory[]> {
      const user = await indexOf(userId);
      if (user.index.size === 0) return [];
      const engine = user.index.dims > 0 ? await embedder() : undefined;
      let vector: Float32Array | null = null;
      if (engine && engine.model === user.model) vector = (await embedMany([text], signal))?.vectors[0] ?? null;
      const hits = user.index.search({ text, vector, limit: k, semanticTrust: engine?.semanticTrust, fullMatchCosine: engine?.fullMatchCosine });
      return hits
        .filter((hit) => threshold === undefined || (hit.score >= threshold && hit.score > 0))
        .map((hit) => ({ ...user.memories.get(hit.key)!, score: hit.score }));
    },
  };
}
export type MemoryIndexes = ReturnType<typeof createMemoryIndexes>;
