import type { AccessControl } from '../contracts/access';
import type { NoteData } from '../contracts/notes';
import { readJson } from '../platform/db/json';
import type { Principal } from '../permissions';
import { DEFAULT_LANGUAGE, isLanguage, RecordIndex, type Language } from '../retrieval';
import type { NoteIndexRow, NotesRepo } from './notes.repo';

/** What the catalog knows of a note without reading its row: enough to list, order and filter by access. */
export interface CatalogEntry {
  id: string;
  userId: string;
  title: string;
  tags: readonly string[];
  language: Language;
  createdAt: number;
  updatedAt: number;
}

/** A note found by a search, with its relevance (0..1). */
export interface CatalogHit {
  entry: CatalogEntry;
  score: number;
}

/** Rows read per query while the catalog is built (the event loop gets a turn between pages). */
const PAGE = 500;

/** The tags a note's readers hold: its owner, every user and group listed to read or write, `public` when open to all. */
export function accessTags(userId: string, access: AccessControl): string[] {
  const tags = new Set([`u:${userId}`]);
  if (access === null) tags.add('public');
  for (const list of [access?.read, access?.write]) {
    for (const id of list?.user_ids ?? []) tags.add(`u:${id}`);
    for (const id of list?.group_ids ?? []) tags.add(`g:${id}`);
  }
  return [...tags];
}

/** The tags a caller holds (any one of them on a note lets them read it); undefined for admins, who read every note. */
export function callerTags(who: Principal): string[] | undefined {
  if (who.role === 'admin') return undefined;
  return ['public', `u:${who.id}`, ...who.groupIds.map((g) => `g:${g}`)];
}

/** The Markdown of a note's `data`. */
export function markdownOf(data: NoteData | null | undefined): string {
  const md = data?.content?.md;
  return typeof md === 'string' ? md : '';
}

/** What the search engine reads of a note: the title counts twice (a title match ranks first), then the text. */
function searchText(title: string, md: string): string {
  return `${title}\n${title}\n${md}`;
}

interface State {
  entries: Map<string, CatalogEntry>;
  indexes: Map<Language, RecordIndex>;
}

function entryOf(row: NoteIndexRow): { entry: CatalogEntry; text: string } {
  const access = row.access_control === null ? null : readJson<AccessControl>(row.access_control, {});
  const language = isLanguage(row.language) ? row.language : DEFAULT_LANGUAGE;
  const md = markdownOf(readJson<NoteData | null>(row.data, null));
  return {
    entry: { id: row.id, userId: row.user_id, title: row.title, tags: accessTags(row.user_id, access), language, createdAt: row.created_at, updatedAt: row.updated_at },
    text: searchText(row.title, md),
  };
}

function apply(state: State, id: string, row: NoteIndexRow | null): void {
  const old = state.entries.get(id);
  if (old) state.indexes.get(old.language)?.delete(id);
  state.entries.delete(id);
  if (!row) return;
  const { entry, text } = entryOf(row);
  let index = state.indexes.get(entry.language);
  if (!index) state.indexes.set(entry.language, (index = RecordIndex.create({ language: entry.language })));
  index.put({ key: id, text, tags: entry.tags });
  state.entries.set(id, entry);
}

/**
 * Every note's access tags, dates and search terms in memory, built on first use from the
 * database (a page at a time) and kept current by the notes service's own writes (and, on
 * PostgreSQL, other instances' announced writes). Full-text search runs on one Orama index per
 * language (each note is analysed in its own language); a search asks every language's index with
 * the query analysed in that language, and reads only notes holding one of the caller's tags.
 */
export function createNotesCatalog(repo: Pick<NotesRepo, 'indexPage' | 'findMany'>) {
  let state: State | undefined;
  let building: Promise<State> | undefined;
  /** Changes seen while a build reads the table, applied once it is done. */
  let replay: Array<[string, NoteIndexRow | null]> = [];

  async function build(): Promise<State> {
    const fresh: State = { entries: new Map(), indexes: new Map() };
    let after: string | null = null;
    for (;;) {
      const rows = await repo.indexPage(after, PAGE);
      for (const row of rows) apply(fresh, row.id, row);
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.id;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return fresh;
  }

  async function load(): Promise<State> {
    if (state) return state;
    if (!building) {
      replay = [];
      const started = build().then(
        (fresh) => {
          if (building !== started) return fresh;
          for (const [id, row] of replay) apply(fresh, id, row);
          replay = [];
          state = fresh;
          building = undefined;
          return fresh;
        },
        (error: unknown) => {
          if (building === started) building = undefined;
          throw error;
        },
      );
      building = started;
    }
    return building;
  }

  /** Drops the whole catalog when replaced records left too many dead slots (rebuilt on next use). */
  function compactIfNeeded(current: State): void {
    if ([...current.indexes.values()].some((index) => index.wantsCompaction)) state = undefined;
  }

  return {
    /** A note was written (or `null`: deleted) here. */
    changed(id: string, row: NoteIndexRow | null): void {
      if (state) {
        apply(state, id, row);
        compactIfNeeded(state);
      } else if (building) replay.push([id, row]);
    },

    /** Another instance changed a note (or, without an id, maybe any): read it again, or forget everything. */
    async refresh(id?: string): Promise<void> {
      if (id === undefined) {
        state = undefined;
        building = undefined;
        return;
      }
      const [row] = await repo.findMany([id]);
      this.changed(id, row ?? null);
    },

    /** Every note someone with `tags` reads (all of them for undefined). */
    async readable(tags: readonly string[] | undefined): Promise<CatalogEntry[]> {
      const current = await load();
      const all = [...current.entries.values()];
      if (!tags) return all;
      const held = new Set(tags);
      return all.filter((e) => e.tags.some((t) => held.has(t)));
    },

    /**
     * The best `limit` notes matching `text` that someone with `tags` reads (all of them without a
     * limit), best first, and how many match in all.
     */
    async search(text: string, tags: readonly string[] | undefined, limit?: number): Promise<{ hits: CatalogHit[]; total: number }> {
      const current = await load();
      const hits: CatalogHit[] = [];
      let total = 0;
      for (const index of current.indexes.values()) {
        for (const hit of index.search({ text, limit: limit ?? index.size, ...(tags ? { anyTag: tags } : {}) })) {
          const entry = current.entries.get(hit.key);
          if (entry && hit.lexical > 0) hits.push({ entry, score: hit.score });
        }
        total += index.lastMatches;
      }
      hits.sort((a, b) => b.score - a.score || b.entry.updatedAt - a.entry.updatedAt);
      return { hits: limit === undefined ? hits : hits.slice(0, limit), total };
    },

    /** Builds the catalog now (start-up warm-up, benches). */
    async warm(): Promise<void> {
      await load();
    },
  };
}
export type NotesCatalog = ReturnType<typeof createNotesCatalog>;
