import { z } from 'zod';
import { AccessControl } from './access';

/** Longest note text, in characters (about a 300-page book). */
export const NOTE_MAX_CHARS = 1_000_000;

/** A note's content: Markdown (`md`); Open WebUI clients may also send `html` and `json`, kept as they are. */
export const NoteContent = z.looseObject({
  md: z.string().max(NOTE_MAX_CHARS, 'must be at most 1,000,000 characters').default(''),
});

/** `data` of a note: its content and whatever else an Open WebUI client keeps there (`files`, `versions`). */
export const NoteData = z.looseObject({ content: NoteContent.optional() });
export type NoteData = z.infer<typeof NoteData>;

const Title = z.string().trim().max(500, 'must be at most 500 characters');
const Meta = z.record(z.string(), z.unknown());

/** Body of POST /api/v1/notes/create. */
export const NoteForm = z.object({
  title: Title,
  data: NoteData.nullish(),
  meta: Meta.nullish(),
  /** Omitted: private to its owner. `null`: everyone reads it (needs `sharing.public_notes`, else it stays private). */
  access_control: AccessControl.optional(),
});
export type NoteForm = z.infer<typeof NoteForm>;

/** Body of POST /api/v1/notes/{id}/update: omitted fields keep their value; `data` and `meta` merge over the stored ones. */
export const NoteUpdateForm = z.object({
  title: Title.optional(),
  data: NoteData.nullish(),
  meta: Meta.nullish(),
  access_control: AccessControl.optional(),
  /**
   * Parley: the version this change was made from. When the note was saved since (its version is
   * higher), the save is refused with 409 and the newer note, so nobody's words are overwritten
   * unseen. Omitted: the change is applied to whatever is stored.
   */
  version: z.number().int().min(1).optional(),
});
export type NoteUpdateForm = z.infer<typeof NoteUpdateForm>;

/** Who wrote a note, as lists show them. */
export const NoteAuthor = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  profile_image_url: z.string(),
});

/** A note. */
export const Note = z.object({
  id: z.string(),
  user_id: z.string(),
  title: z.string(),
  data: NoteData.nullable(),
  meta: Meta.nullable(),
  access_control: AccessControl,
  /** Counts saves; send it back with an update to be told (409) when someone saved in between. */
  version: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  /** Whether the caller may change it. */
  write_access: z.boolean(),
  /** The author (lists and search). */
  user: NoteAuthor.nullable().optional(),
});
export type Note = z.infer<typeof Note>;

/** Answer of GET /api/v1/notes/search. */
export const NoteSearchResult = z.object({
  items: z.array(Note),
  /** Notes matching in all (the items are one page of them). */
  total: z.number().int(),
});
export type NoteSearchResult = z.infer<typeof NoteSearchResult>;

/** Query of GET /api/v1/notes/search. */
export const NoteSearchQuery = z.object({
  query: z.string().max(1000, 'must be at most 1,000 characters').optional(),
  /** `created`: the caller's own notes; `shared`: other people's. */
  view_option: z.enum(['created', 'shared']).optional(),
  order_by: z.enum(['name', 'created_at', 'updated_at']).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1, 'must be 1 or more').max(100_000).optional(),
});
export type NoteSearchQuery = z.infer<typeof NoteSearchQuery>;

/** Query of GET /api/v1/notes/: `page` pages by 60, newest first. */
export const NoteListQuery = z.object({
  page: z.coerce.number().int().min(1, 'must be 1 or more').max(100_000).optional(),
});

/** What the task model does to a note's text. */
export const NoteAssistAction = z.enum(['summarize', 'improve']);
export type NoteAssistAction = z.infer<typeof NoteAssistAction>;

/** Body of POST /api/v1/notes/assist. */
export const NoteAssistRequest = z.object({
  action: NoteAssistAction,
  /** The Markdown to work on (a note's whole text or a selection). */
  content: z.string().trim().min(1, 'must not be empty').max(200_000, 'must be at most 200,000 characters'),
  /** A model to run it on instead of the task model. */
  model: z.string().max(256).optional(),
});
export type NoteAssistRequest = z.infer<typeof NoteAssistRequest>;

/** Answer of POST /api/v1/notes/assist. */
export const NoteAssistResult = z.object({ content: z.string() });

/** The `note-events` socket event: a note saved (the note) or deleted (`deleted: true`). */
export type NoteEvent = (Omit<Note, 'write_access' | 'user'> & { deleted?: false }) | { id: string; deleted: true };
