import type { AccessControl } from '../contracts/access';
import type { Role } from '../contracts/auth';
import type { Note, NoteData, NoteEvent, NoteForm, NoteSearchQuery, NoteSearchResult, NoteUpdateForm } from '../contracts/notes';
import type { Clock } from '../platform/clock';
import { readJson, writeJson } from '../platform/db/json';
import { conflict, forbidden, notFound } from '../platform/http/errors';
import { newId } from '../platform/ids';
import { canAccess, storedAccess, type PermissionsService, type Principal } from '../permissions';
import { DEFAULT_LANGUAGE, detectLanguage } from '../retrieval';
import { callerTags, markdownOf, type CatalogEntry, type NotesCatalog } from './notes-catalog';
import type { NoteRow, NotesRepo } from './notes.repo';

/** The caller as note rules see them. */
export interface NoteCaller {
  id: string;
  role: Role;
}

/** The author fields a note shows. */
export interface NoteAuthorInfo {
  id: string;
  name: string;
  email: string;
  role: string;
  profile_image_url: string;
}

/** Notes per page of lists and searches (Open WebUI's page size). */
export const NOTES_PAGE_SIZE = 60;

const noteNotFound = () => notFound('Note not found', 'NOTE_NOT_FOUND');
/** The refusal while ENABLE_NOTES is off. */
export const notesDisabled = () => forbidden('Notes are turned off by an administrator', 'NOTES_DISABLED');
/** The refusal without the `features.notes` permission. */
export const notesForbidden = () => forbidden("You need the permission 'features.notes' to use notes", 'NOTES_FORBIDDEN');

/** A note as a Markdown file: its title as the first heading, then its text. */
function markdownFile(row: Pick<NoteRow, 'title' | 'data'>): string {
  return `# ${row.title || 'Untitled'}\n\n${markdownOf(readJson<NoteData | null>(row.data, null))}`.trimEnd() + '\n';
}

function accessOf(row: Pick<NoteRow, 'access_control'>): AccessControl {
  return row.access_control === null ? null : readJson<AccessControl>(row.access_control, {});
}

/** The language a note's words are analysed in: detected from its title and text. */
function languageOf(title: string, md: string): string {
  return detectLanguage(`${title}\n${md}`) ?? DEFAULT_LANGUAGE;
}

/** What the notes service is built from. */
export interface NotesDeps {
  repo: NotesRepo;
  catalog: NotesCatalog;
  permissions: PermissionsService;
  /** Whether ENABLE_NOTES is on. */
  enabled(): Promise<boolean>;
  findUser(id: string): Promise<NoteAuthorInfo | undefined>;
  /** Tells live viewers of a note that it was saved or deleted. */
  publish(event: NoteEvent): void;
  clock: Clock;
}

/**
 * Notes: Markdown with access control like other workspace objects (owner and admins do
 * anything; `write` principals change the text; `read` principals and everyone for a public note
 * read it; only owners and admins change who may). Saves carry the version they were made from:
 * a stale one is refused with the newer note (409), so two people editing never lose words unseen.
 */
export function createNotesService(deps: NotesDeps) {
  const { repo, catalog, permissions, clock } = deps;

  /** The note's fields every reader gets (live events carry exactly these). */
  function wireOf(row: NoteRow): Exclude<NoteEvent, { deleted: true }> {
    return {
      id: row.id,
      user_id: row.user_id,
      title: row.title,
      data: readJson<NoteData | null>(row.data, null),
      meta: readJson<Record<string, unknown> | null>(row.meta, null),
      access_control: accessOf(row),
      version: row.version,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The note for one caller: whether they may change it, and its author on request. */
  async function present(row: NoteRow, who: Principal, withAuthor = false): Promise<Note> {
    const wire = wireOf(row);
    return {
      ...wire,
      write_access: canAccess(who, { user_id: row.user_id, access_control: wire.access_control }, 'write'),
      ...(withAuthor ? { user: (await deps.findUser(row.user_id)) ?? null } : {}),
    };
  }

  /** Whether a user may use notes at all: ENABLE_NOTES, then `features.notes` (admins hold it). */
  async function mayUse(caller: NoteCaller): Promise<void> {
    if (!(await deps.enabled())) throw notesDisabled();
    if (!(await permissions.allows(caller, 'features.notes'))) throw notesForbidden();
  }

  /** A note the caller may read; one they may not read answers like a missing one. */
  async function readable(caller: NoteCaller, id: string): Promise<{ row: NoteRow; who: Principal }> {
    const who = await permissions.principal(caller);
    const row = await repo.find(id);
    if (!row || !canAccess(who, { user_id: row.user_id, access_control: accessOf(row) }, 'read')) throw noteNotFound();
    return { row, who };
  }

  async function writable(caller: NoteCaller, id: string): Promise<{ row: NoteRow; who: Principal }> {
    const found = await readable(caller, id);
    if (!canAccess(found.who, { user_id: found.row.user_id, access_control: accessOf(found.row) }, 'write')) {
      throw forbidden('You may read this note but not change it', 'NOTE_READ_ONLY');
    }
    return found;
  }

  /** Without `sharing.public_notes` a non-admin's public note stays private. */
  const accessToStore = (caller: NoteCaller, value: AccessControl | undefined) => storedAccess((key) => permissions.allows(caller, key), value, 'sharing.public_notes');

  async function rowsOf(entries: readonly CatalogEntry[]): Promise<NoteRow[]> {
    const rows = new Map((await repo.findMany(entries.map((e) => e.id))).map((r) => [r.id, r]));
    return entries.map((e) => rows.get(e.id)).filter((r): r is NoteRow => r !== undefined);
  }

  function changed(row: NoteRow | null, id: string): void {
    catalog.changed(id, row);
    deps.publish(row ? wireOf(row) : { id, deleted: true });
  }

  return {
    mayUse,

    /** Whether a user may follow a note live (the socket topic `note:<id>`): notes usable and the note readable. */
    async mayWatch(user: NoteCaller, id: string): Promise<boolean> {
      try {
        await mayUse(user);
        await readable(user, id);
        return true;
      } catch {
        return false;
      }
    },

    /** Notes the caller may read, newest first; `page` gives 60 of them. */
    async list(caller: NoteCaller, page?: number): Promise<Note[]> {
      const who = await permissions.principal(caller);
      let entries = (await catalog.readable(callerTags(who))).sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
      if (page !== undefined) entries = entries.slice((page - 1) * NOTES_PAGE_SIZE, page * NOTES_PAGE_SIZE);
      return Promise.all((await rowsOf(entries)).map((row) => present(row, who, true)));
    },

    /** Full-text search (each note in its language) over what the caller may read; without a query, their notes newest first. */
    async search(caller: NoteCaller, query: NoteSearchQuery): Promise<NoteSearchResult> {
      const who = await permissions.principal(caller);
      const tags = callerTags(who);
      const text = query.query?.trim() ?? '';
      const page = query.page ?? 1;
      const pageOf = async (entries: readonly CatalogEntry[], total: number): Promise<NoteSearchResult> => ({
        items: await Promise.all((await rowsOf(entries.slice((page - 1) * NOTES_PAGE_SIZE, page * NOTES_PAGE_SIZE))).map((row) => present(row, who, true))),
        total,
      });
      // The common case, ranked by relevance: only the pages up to this one are ranked in full.
      if (text && !query.view_option && !query.order_by) {
        const found = await catalog.search(text, tags, page * NOTES_PAGE_SIZE);
        return pageOf(
          found.hits.map((h) => h.entry),
          found.total,
        );
      }
      let entries = text ? (await catalog.search(text, tags)).hits.map((h) => h.entry) : await catalog.readable(tags);
      if (query.view_option === 'created') entries = entries.filter((e) => e.userId === caller.id);
      if (query.view_option === 'shared') entries = entries.filter((e) => e.userId !== caller.id);
      if (query.order_by || !text) {
        const by = query.order_by ?? 'updated_at';
        const sign = (query.direction ?? (by === 'name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
        const key = (e: CatalogEntry) => (by === 'name' ? e.title.toLowerCase() : by === 'created_at' ? e.createdAt : e.updatedAt);
        entries = [...entries].sort((a, b) => {
          const x = key(a);
          const y = key(b);
          return (x < y ? -1 : x > y ? 1 : 0) * sign || a.id.localeCompare(b.id);
        });
      }
      return pageOf(entries, entries.length);
    },

    async create(caller: NoteCaller, form: NoteForm): Promise<Note> {
      const now = clock.now();
      const md = markdownOf(form.data);
      const row: NoteRow = {
        id: newId(),
        user_id: caller.id,
        title: form.title,
        data: writeJson(form.data ?? { content: { md: '' } }),
        meta: form.meta ? writeJson(form.meta) : null,
        access_control: await accessToStore(caller, form.access_control),
        version: 1,
        language: languageOf(form.title, md),
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      catalog.changed(row.id, row);
      return present(row, await permissions.principal(caller));
    },

    async get(caller: NoteCaller, id: string): Promise<Note> {
      const { row, who } = await readable(caller, id);
      return present(row, who, true);
    },

    /** The note as Markdown (its title as the first heading) and a file name for it. */
    async markdown(caller: NoteCaller, id: string): Promise<{ name: string; text: string }> {
      const { row } = await readable(caller, id);
      return { name: row.title || 'note', text: markdownFile(row) };
    },

    /** Refuses (404, or 403 for a reader) unless the caller may change the note. */
    async assertWritable(caller: NoteCaller, id: string): Promise<void> {
      await writable(caller, id);
    },

    /** Every note the caller owns as Markdown (title as the first heading), newest first: the notes export. */
    async ownMarkdown(caller: NoteCaller): Promise<Array<{ title: string; text: string; updatedAt: number }>> {
      const entries = (await catalog.readable([`u:${caller.id}`])).filter((e) => e.userId === caller.id).sort((a, b) => b.updatedAt - a.updatedAt);
      return (await rowsOf(entries)).map((row) => ({
        title: row.title,
        text: markdownFile(row),
        updatedAt: row.updated_at,
      }));
    },

    /** The Markdown of notes attached to a message, in the order given; one the caller may not read is 404, like a missing one. */
    async attachable(caller: NoteCaller, ids: readonly string[]): Promise<Array<{ id: string; title: string; md: string }>> {
      const who = await permissions.principal(caller);
      const rows = new Map((await repo.findMany(ids)).map((row) => [row.id, row]));
      return [...new Set(ids)].map((id) => {
        const row = rows.get(id);
        if (!row || !canAccess(who, { user_id: row.user_id, access_control: accessOf(row) }, 'read')) throw noteNotFound();
        return { id: row.id, title: row.title, md: markdownOf(readJson<NoteData | null>(row.data, null)) };
      });
    },

    /**
     * Saves a change. With `version`, a note saved since that version is not overwritten: 409 with
     * the newer note. Access control changes stay with the owner and admins.
     */
    async update(caller: NoteCaller, id: string, form: NoteUpdateForm): Promise<Note> {
      const { row, who } = await writable(caller, id);
      const stale = async (current: NoteRow) => {
        throw conflict(`This note was saved by someone else since version ${form.version ?? row.version} (now version ${current.version})`, 'NOTE_CHANGED', {
          note: await present(current, who, true),
        });
      };
      if (form.version !== undefined && form.version !== row.version) return stale(row);
      const ownerOrAdmin = caller.role === 'admin' || caller.id === row.user_id;
      const data = form.data ? { ...readJson<Record<string, unknown>>(row.data, {}), ...form.data } : readJson<Record<string, unknown> | null>(row.data, null);
      const meta = form.meta ? { ...readJson<Record<string, unknown>>(row.meta, {}), ...form.meta } : readJson<Record<string, unknown> | null>(row.meta, null);
      const title = form.title ?? row.title;
      const change = {
        title,
        data: writeJson(data),
        meta: meta === null ? null : writeJson(meta),
        access_control: form.access_control !== undefined && ownerOrAdmin ? await accessToStore(caller, form.access_control) : row.access_control,
        version: row.version + 1,
        language: languageOf(title, markdownOf(data as NoteData | null)),
        updated_at: clock.now(),
      };
      // Conditional on the version read: a save that landed in between wins, this one is refused.
      if (!(await repo.update(id, row.version, change))) {
        const current = await repo.find(id);
        if (!current) throw noteNotFound();
        return stale(current);
      }
      const saved: NoteRow = { ...row, ...change };
      changed(saved, id);
      return present(saved, who);
    },

    async delete(caller: NoteCaller, id: string): Promise<void> {
      await writable(caller, id);
      await repo.delete(id);
      changed(null, id);
    },
  };
}
export type NotesService = ReturnType<typeof createNotesService>;
