import { ANALYSIS_LANGUAGES, type AnalysisLanguage, type KnowledgeCreate, type KnowledgeDetail, type KnowledgeFilePreview, type KnowledgeSummary, type KnowledgeUpdate } from '../contracts/knowledge';
import type { AccessControl } from '../contracts/access';
import type { QueryCollectionRequest, QueryCollectionResponse } from '../contracts/retrieval';
import type { Role } from '../contracts/auth';
import type { FileRow, FilesService } from '../files';
import type { Clock } from '../platform/clock';
import { badRequest, forbidden, notFound } from '../platform/http/errors';
import { newId } from '../platform/ids';
import type { Logger } from '../platform/log';
import { canAccess, storedAccess, type PermissionsService, type Principal } from '../permissions';
import type { CollectionFiles, FileChunk, RetrievalService, SearchHit, SearchOptions } from '../retrieval';
import type { FileLists } from './file-lists';
import type { KnowledgeRepo, KnowledgeRow } from './knowledge.repo';
import { accessOf, presentDetail, presentSummary } from './knowledge.present';

/** Who is asking. */
export interface KnowledgeCaller {
  id: string;
  role: Role;
}

/** Called after a file leaves a knowledge base (the knowledge graph hooks in here). */
export type FileRemovedHook = (event: { knowledgeId: string; fileId: string }) => Promise<void> | void;

/** The collection id of a loose file (a chat attachment). */
export const fileCollection = (fileId: string) => `file-${fileId}`;

const knowledgeNotFound = () => notFound('Knowledge base not found', 'KNOWLEDGE_NOT_FOUND');

/** How much extracted text a preview carries, and how much text of its chunks (the first ones)… */
const PREVIEW_CHARS = 200_000;
/** …but at most this many chunks (a large file has thousands: all of them would be megabytes to read and send). */
const PREVIEW_CHUNKS = 500;

function readMeta(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The refusal without the `workspace.knowledge` permission. */
export const knowledgeCreateForbidden = () => forbidden('You are not allowed to create knowledge bases', 'KNOWLEDGE_CREATE_FORBIDDEN');

/** A base the caller may see, and who the caller is, as read once in a request. */
export interface VisibleBase {
  row: KnowledgeRow;
  who: Principal;
}

/**
 * Knowledge bases: CRUD with owner and access_control like models, files with background
 * ingestion, export, and searches over the bases and files a caller may read.
 */
export function createKnowledgeService(deps: {
  repo: KnowledgeRepo;
  /** Files in collections: retrieval indexes them. */
  collections: CollectionFiles;
  retrieval: RetrievalService;
  fileLists: FileLists;
  files: FilesService;
  permissions: PermissionsService;
  clock: Clock;
  log: Logger;
}) {
  const { repo, collections, retrieval, fileLists, files, permissions, clock } = deps;
  const removedHooks: FileRemovedHook[] = [];

  /**
   * The access list to store: making a base public (null) needs `sharing.public_knowledge`
   * (admins always); without it the base stays private, unless it already was public.
   */
  const accessToStore = async (caller: KnowledgeCaller, value: AccessControl | undefined, current?: string | null): Promise<string | null> =>
    value === null && current === null ? null : storedAccess((key) => permissions.allows(caller, key), value, 'sharing.public_knowledge');

  const allowed = (who: Principal, row: KnowledgeRow, mode: 'read' | 'write') => canAccess(who, { user_id: row.user_id, access_control: accessOf(row) }, mode);

  /** The base and the caller's principal if the caller may read it (404 otherwise: private ids do not leak). */
  async function see(caller: KnowledgeCaller, id: string): Promise<VisibleBase> {
    const row = await repo.findById(id);
    if (!row) throw knowledgeNotFound();
    const who = await permissions.principal(caller);
    if (!allowed(who, row, 'read')) throw knowledgeNotFound();
    return { row, who };
  }

  /**
   * The base if the caller may read it (404 otherwise); 403 when writing is asked and not
   * allowed. `seen` is what {@link see} answered earlier in the same request (not read twice).
   */
  async function require(caller: KnowledgeCaller, id: string, mode: 'read' | 'write', seen?: VisibleBase): Promise<KnowledgeRow> {
    const { row, who } = seen?.row.id === id ? seen : await see(caller, id);
    if (mode === 'write' && !allowed(who, row, 'write')) throw forbidden('You may not change this knowledge base', 'KNOWLEDGE_FORBIDDEN');
    return row;
  }

  async function detail(row: KnowledgeRow): Promise<KnowledgeDetail> {
    const language = await retrieval.languageOf(row.id);
    return presentDetail(row, await fileLists.get(row.id), {
      language: ANALYSIS_LANGUAGES.includes(language as AnalysisLanguage) ? (language as AnalysisLanguage) : null,
      reindexing: (await retrieval.reindexProgress(row.id)) ?? null,
    });
  }

  async function runRemovedHooks(knowledgeId: string, fileId: string): Promise<void> {
    for (const hook of removedHooks) {
      try {
        await hook({ knowledgeId, fileId });
      } catch (error) {
        deps.log.warn({ err: error }, 'a file-removed hook failed');
      }
    }
  }

  const service = {
    /** Bases the caller may read, newest change first. */
    async list(caller: KnowledgeCaller): Promise<KnowledgeSummary[]> {
      const who = await permissions.principal(caller);
      const rows = (await repo.all()).filter((row) => allowed(who, row, 'read'));
      const counts = await collections.fileCounts(rows.map((r) => r.id));
      return rows.map((row) => presentSummary(row, counts.get(row.id) ?? 0));
    },

    /** Creates a base; needs the admin role or the workspace.knowledge permission. Private unless access_control says otherwise. */
    async create(caller: KnowledgeCaller, body: KnowledgeCreate): Promise<KnowledgeSummary> {
      if (!(await permissions.allows(caller, 'workspace.knowledge'))) throw knowledgeCreateForbidden();
      const now = clock.now();
      const row: KnowledgeRow = {
        id: newId(),
        user_id: caller.id,
        name: body.name,
        description: body.description,
        access_control: await accessToStore(caller, body.access_control),
        meta: '{}',
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      return presentSummary(row, 0);
    },

    async get(caller: KnowledgeCaller, id: string): Promise<KnowledgeDetail> {
      return detail(await require(caller, id, 'read'));
    },

    /**
     * Throws the 404 {@link get} would when the caller cannot see the base (without building its
     * detail); answers what it read, for the same request's next step ({@link addFile}).
     */
    requireVisible: see,

    async update(caller: KnowledgeCaller, id: string, body: KnowledgeUpdate): Promise<KnowledgeDetail> {
      const row = await require(caller, id, 'write');
      const patch: Partial<KnowledgeRow> = { name: body.name, updated_at: clock.now() };
      if (body.description !== undefined) patch.description = body.description;
      // Who may read and write a base is its owner's (or an admin's) to say: a writer's list is ignored.
      const ownerOrAdmin = caller.role === 'admin' || caller.id === row.user_id;
      if (body.access_control !== undefined && ownerOrAdmin) patch.access_control = await accessToStore(caller, body.access_control, row.access_control);
      await repo.update(id, patch);
      if (body.language !== undefined && body.language !== (await retrieval.languageOf(id))) await retrieval.setLanguage(id, body.language);
      return detail({ ...row, ...patch });
    },

    /** Deletes a base, its chunks and its index (the files themselves stay with their owners). */
    async delete(caller: KnowledgeCaller, id: string): Promise<void> {
      await require(caller, id, 'write');
      const entries = await collections.filesOf(id);
      await retrieval.dropCollection(id);
      await repo.delete(id);
      fileLists.forget(id);
      for (const entry of entries) await runRemovedHooks(id, entry.file_id);
    },

    /** Adds a file the caller may read and starts indexing it in the background. */
    async addFile(caller: KnowledgeCaller, id: string, fileId: string, seen?: VisibleBase): Promise<KnowledgeDetail> {
      const row = await require(caller, id, 'write', seen);
      const file = await files.requireReadable(caller, fileId);
      const now = clock.now();
      const added = await collections.addFile({ collectionId: id, fileId, knowledgeId: id, notify: [caller.id, row.user_id] });
      if (!added) throw badRequest('The file is already in this knowledge base', 'FILE_ALREADY_ADDED');
      fileLists.put(id, { id: fileId, name: file.filename, status: 'pending', size: file.size, mime_type: file.mime_type, created_at: now });
      // Files added in a burst: the base was touched this second already (times are in seconds).
      if (row.updated_at < now) await repo.touch(id, now);
      return detail({ ...row, updated_at: now });
    },

    /** Removes a file from a base: its chunks and index entries go; the file stays. */
    async removeFile(caller: KnowledgeCaller, id: string, fileId: string): Promise<KnowledgeDetail> {
      const row = await require(caller, id, 'write');
      if (!(await collections.removeFile(id, fileId))) throw notFound('The file is not in this knowledge base', 'FILE_NOT_IN_KNOWLEDGE');
      fileLists.remove(id, fileId);
      const now = clock.now();
      await repo.touch(id, now);
      await runRemovedHooks(id, fileId);
      return detail({ ...row, updated_at: now });
    },

    /**
     * A file of the base as retrieval sees it: the text extracted from it now and its stored
     * chunks in order. Extraction problems are reported in the answer, not as an error.
     */
    async filePreview(caller: KnowledgeCaller, id: string, fileId: string): Promise<KnowledgeFilePreview> {
      await require(caller, id, 'read');
      const entry = (await fileLists.get(id)).find((f) => f.id === fileId);
      if (!entry) throw notFound('The file is not in this knowledge base', 'FILE_NOT_IN_KNOWLEDGE');
      const rows = await collections.chunksOf(id, fileId, PREVIEW_CHUNKS);
      const chunks: KnowledgeFilePreview['chunks'] = [];
      let chars = 0;
      for (const c of rows) {
        if (chunks.length > 0 && chars + c.text.length > PREVIEW_CHARS) break;
        chars += c.text.length;
        chunks.push({ seq: c.seq, text: c.text, meta: readMeta(c.meta) });
      }
      const total = rows.length < PREVIEW_CHUNKS ? rows.length : await collections.chunkCount(id, fileId);
      const { text, error, truncated } = await collections.previewText({ id: fileId, mime_type: entry.mime_type, filename: entry.name }, PREVIEW_CHARS);
      return { file_id: fileId, name: entry.name, status: entry.status, text, ...(error ? { text_error: error } : {}), truncated, chunks, chunks_total: total };
    },

    /** The base's name and its files in order, for the ZIP export. */
    async exportFiles(caller: KnowledgeCaller, id: string): Promise<{ name: string; files: FileRow[] }> {
      const row = await require(caller, id, 'read');
      const entries = await collections.filesOf(id);
      const byId = new Map((await files.findMany(entries.map((e) => e.file_id))).map((f) => [f.id, f]));
      return { name: row.name, files: entries.map((e) => byId.get(e.file_id)).filter((f): f is FileRow => f !== undefined) };
    },

    /**
     * Collection ids for these references that the caller may search: knowledge bases they may
     * read (`collection`), files they may read (`file`, indexed on first use). Others are skipped.
     */
    async searchable(caller: KnowledgeCaller, refs: ReadonlyArray<{ type: string; id: string }>): Promise<Array<{ collectionId: string; name: string; type: 'collection' | 'file' }>> {
      const who = await permissions.principal(caller);
      const out: Array<{ collectionId: string; name: string; type: 'collection' | 'file' }> = [];
      const seen = new Set<string>();
      for (const ref of refs) {
        if (seen.has(`${ref.type}:${ref.id}`)) continue;
        seen.add(`${ref.type}:${ref.id}`);
        if (ref.type === 'file') {
          const file = await files.find(ref.id);
          if (!file || (file.user_id !== caller.id && caller.role !== 'admin')) continue;
          await service.indexFile(caller, file);
          out.push({ collectionId: fileCollection(file.id), name: file.filename, type: 'file' });
        } else {
          const row = await repo.findById(ref.id);
          if (row && allowed(who, row, 'read')) out.push({ collectionId: row.id, name: row.name, type: 'collection' });
        }
      }
      return out;
    },

    /** Makes sure a loose file (chat attachment) is indexed, waiting for it. */
    indexFile(caller: KnowledgeCaller, file: FileRow): Promise<void> {
      return collections.indexFile({ collectionId: fileCollection(file.id), fileId: file.id, knowledgeId: null, notify: [caller.id] });
    },

    /** A loose file's chunks in document order (already access-checked; indexed by `searchable`). */
    fileChunks(fileId: string): Promise<FileChunk[]> {
      return collections.chunksOf(fileCollection(fileId), fileId);
    },

    /** Searches the given collections (already access-checked). */
    search(collectionIds: readonly string[], query: string, options?: SearchOptions): Promise<SearchHit[]> {
      return retrieval.search(collectionIds, query, options);
    },

    /** POST /api/v1/retrieval/query/collection: collection names are knowledge base ids or `file-<id>`. */
    async queryCollections(caller: KnowledgeCaller, request: QueryCollectionRequest): Promise<QueryCollectionResponse> {
      const refs = request.collection_names.map((name) => (name.startsWith('file-') ? { type: 'file', id: name.slice(5) } : { type: 'collection', id: name }));
      const targets = await service.searchable(caller, refs);
      if (targets.length < new Set(request.collection_names).size) throw notFound('Collection not found', 'COLLECTION_NOT_FOUND');
      const hits = await retrieval.search(
        targets.map((t) => t.collectionId),
        request.query,
        { k: request.k, hybrid: request.hybrid, threshold: request.relevance_threshold, weight: request.hybrid_bm25_weight },
      );
      const names = new Map((await files.findMany([...new Set(hits.map((h) => h.fileId))])).map((f) => [f.id, f.filename]));
      return {
        documents: [hits.map((h) => h.text)],
        metadatas: [hits.map((h) => ({ ...h.meta, file_id: h.fileId, name: names.get(h.fileId) ?? '', source: names.get(h.fileId) ?? '', collection: h.collectionId, chunk_id: h.chunkId, lexical: h.lexical, semantic: h.semantic }))],
        distances: [hits.map((h) => h.score)],
      };
    },

    /** The base if the caller may read it (404 otherwise) or, asked for `write`, change it (403): the access check for other domains (the knowledge graph). */
    access(caller: KnowledgeCaller, id: string, mode: 'read' | 'write'): Promise<KnowledgeRow> {
      return require(caller, id, mode);
    },

    /**
     * For users.beforeUserDeleted: notes the user's bases, their files' collections and the other
     * bases holding their files while the rows exist; the step it returns (run once the deletion
     * committed and the rows cascaded) drops those indexes from memory and disk, takes the
     * user's files out of other people's indexes, and tells the file-removed hooks.
     */
    async beforeUserDeleted(userId: string): Promise<() => Promise<void>> {
      const bases = await repo.idsOfUser(userId);
      const ownBases = new Set(bases);
      const entries = await collections.entriesOfFiles(await files.idsOfUser(userId));
      const baseFiles = new Map<string, string[]>();
      for (const id of bases) baseFiles.set(id, (await collections.filesOf(id)).map((e) => e.file_id));
      return async () => {
        const dropped = new Set(bases);
        for (const entry of entries) if (entry.knowledge_id === null || ownBases.has(entry.collection_id)) dropped.add(entry.collection_id);
        for (const collectionId of dropped) await retrieval.forgetCollection(collectionId);
        for (const id of bases) fileLists.forget(id);
        for (const entry of entries) if (entry.knowledge_id !== null) fileLists.remove(entry.knowledge_id, entry.file_id);
        for (const entry of entries) if (!dropped.has(entry.collection_id)) await retrieval.forgetFile(entry.collection_id, entry.file_id);
        for (const [id, fileIds] of baseFiles) for (const fileId of fileIds) await runRemovedHooks(id, fileId);
        for (const entry of entries) if (entry.knowledge_id !== null && !ownBases.has(entry.knowledge_id)) await runRemovedHooks(entry.knowledge_id, entry.file_id);
      };
    },

    /** Registers work to do after a file leaves a knowledge base. */
    onFileRemoved(hook: FileRemovedHook): void {
      removedHooks.push(hook);
    },

    /** Registers work to do after a file is indexed. */
    onFileIndexed: collections.onFileIndexed,
  };
  return service;
}
export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
