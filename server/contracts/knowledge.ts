import { z } from 'zod';
import { AccessControl } from './access';

/** POST /api/knowledge/create. */
export const KnowledgeCreate = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  description: z.string().max(10_000, 'must be at most 10000 characters').default(''),
  /** Omitted: private (`{}`); null: everyone may read. */
  access_control: AccessControl.optional(),
});
export type KnowledgeCreate = z.infer<typeof KnowledgeCreate>;

/** POST /api/knowledge/{id}/update. */
/** Languages a knowledge base's text can be analysed in (Orama's stemmers and stop words; word segmentation for Chinese and Japanese). */
export const ANALYSIS_LANGUAGES = ['english', 'german', 'french', 'spanish', 'italian', 'portuguese', 'dutch', 'swedish', 'norwegian', 'danish', 'finnish', 'turkish', 'russian', 'ukrainian', 'chinese', 'japanese'] as const;
export const AnalysisLanguage = z.enum(ANALYSIS_LANGUAGES, { message: `must be one of ${ANALYSIS_LANGUAGES.join(', ')}` });
export type AnalysisLanguage = z.infer<typeof AnalysisLanguage>;

export const KnowledgeUpdate = z.object({
  name: KnowledgeCreate.shape.name,
  description: z.string().max(10_000, 'must be at most 10000 characters').optional(),
  access_control: AccessControl.optional(),
  /** Changing it re-indexes the base in the background (see `reindexing`). */
  language: AnalysisLanguage.optional(),
});
export type KnowledgeUpdate = z.infer<typeof KnowledgeUpdate>;

/** POST /api/knowledge/{id}/file/add and /file/remove. */
export const KnowledgeFileRequest = z.object({
  file_id: z.string().trim().min(1, 'must not be empty').max(200),
});
export type KnowledgeFileRequest = z.infer<typeof KnowledgeFileRequest>;

/** Ingestion state of a file in a knowledge base. */
export const FileStatus = z.enum(['pending', 'processing', 'completed', 'failed']);
export type FileStatus = z.infer<typeof FileStatus>;

/** A file as a knowledge base lists it. */
export const KnowledgeFile = z.object({
  id: z.string(),
  name: z.string(),
  status: FileStatus,
  /** Why ingestion failed (only when `failed`). */
  error: z.string().optional(),
  size: z.number(),
  mime_type: z.string(),
  created_at: z.number(),
});
export type KnowledgeFile = z.infer<typeof KnowledgeFile>;

/** A knowledge base in list and create responses. */
export const KnowledgeSummary = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  description: z.string(),
  access_control: AccessControl,
  /** Files that can be searched or are being ingested (failed ones are not counted). */
  file_count: z.number(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type KnowledgeSummary = z.infer<typeof KnowledgeSummary>;

/** A knowledge base with its files (single-item, update and file add/remove responses). */
export const KnowledgeDetail = KnowledgeSummary.extend({
  files: z.array(KnowledgeFile),
  /** The language the base's text is analysed in; null until its first document was read (then detected). */
  language: AnalysisLanguage.nullable(),
  /** Progress 0..1 of a re-index after a language change; null when none runs. */
  reindexing: z.number().nullable(),
});
export type KnowledgeDetail = z.infer<typeof KnowledgeDetail>;

/** Realtime event `knowledge:file` sent to the base's owner and the user who added the file. */
export interface KnowledgeFileEvent {
  knowledge_id: string | null;
  file_id: string;
  status: FileStatus;
  /** 0..1 */
  progress: number;
  error?: string;
}

/** One chunk of a file as the preview shows it. */
export const KnowledgeChunkPreview = z.object({
  /** Order of the chunk in the file, from 0. */
  seq: z.number(),
  text: z.string(),
  /** Heading trail, page and parent number when the chunker recorded them. */
  meta: z.record(z.string(), z.unknown()),
});
export type KnowledgeChunkPreview = z.infer<typeof KnowledgeChunkPreview>;

/** GET /api/v1/knowledge/{id}/file/{file_id}/preview: what retrieval sees of a file. */
export const KnowledgeFilePreview = z.object({
  file_id: z.string(),
  name: z.string(),
  status: FileStatus,
  /** The text extracted from the file now (cut at 200,000 characters), null when extraction fails. */
  text: z.string().nullable(),
  /** Why no text could be extracted (only when `text` is null). */
  text_error: z.string().optional(),
  /** Whether `text` was cut. */
  truncated: z.boolean(),
  /** The file's first chunks in order: up to 200,000 characters of their text, at most 500. */
  chunks: z.array(KnowledgeChunkPreview),
  /** How many chunks the file has (more than `chunks` holds when they were cut). */
  chunks_total: z.number().int(),
});
export type KnowledgeFilePreview = z.infer<typeof KnowledgeFilePreview>;
