import type { Knex } from 'knex';
import { dialectOf, type Db } from '../../platform/db/knex';
import { LIST_COLUMNS, type ChatRow } from '../chats.repo';
import { ftsTerms } from './search-text';

/** What to look for; words already turned into an FTS query (or null) and LIKE patterns. */
export interface ChatSearchCriteria {
  userId: string;
  /** FTS5 queries over titles and message text (whole words, and with the last word as a prefix); null when the words have no letters or digits. */
  fts: { exact: string; prefix: string } | null;
  /** The raw words, for the LIKE path (used when FTS cannot express them). */
  words: string[];
  tags: string[];
  after: number | null;
  before: number | null;
  offset: number;
  limit: number;
}

/** A chat that matched, with the message that matched (its newest matching one). */
export interface ChatSearchHit {
  row: ChatRow;
  /** The best matching message passage; null when only the title or the filters matched. */
  passage: string | null;
  /** How it was found: FTS terms (word starts, accents ignored) or LIKE substrings. */
  via: 'fts' | 'like';
}

const COLS = LIST_COLUMNS.map((c) => `c.${c}`).join(', ');

function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** PostgreSQL: a column's words, case and accents folded (the expression the GIN indexes of migration 202611260102 cover). */
const PG_VECTOR = (column: string) => `to_tsvector('simple', parley_search_text(${column}))`;
const PG_QUERY = "to_tsquery('simple', parley_search_text(?))";

/** PostgreSQL: the words as tsqueries, all required; `prefix` lets the last one match word starts (as FTS5's `"term"*`). */
function pgQueries(words: readonly string[]): { exact: string; prefix: string } {
  const terms = ftsTerms(words);
  const exact = terms.join(' & ');
  return { exact, prefix: `${exact}:*` };
}

/**
 * Chat search storage. SQLite uses the FTS5 tables of migration 202611231700, PostgreSQL its
 * full-text search (migration 202611260102) with the same ranking; a query without letters or
 * digits takes the LIKE path on both.
 */
export function createChatSearchRepo(db: Db) {
  const postgres = dialectOf(db) === 'postgres';
  // A tag filter: the chat's JSON text array holds the tag (compared lower-cased).
  const tagSql = postgres
    ? 'EXISTS (SELECT 1 FROM jsonb_array_elements_text(c.tags::jsonb) AS t(value) WHERE lower(t.value) = ?)'
    : 'EXISTS (SELECT 1 FROM json_each(c.tags) WHERE lower(json_each.value) = ?)';
  let hasFts: Promise<boolean> | undefined;
  const ftsAvailable = () =>
    (hasFts ??= postgres ? Promise.resolve(true) : db
      .raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'chat_messages_fts'")
      .then((rows: unknown) => Array.isArray(rows) && rows.length > 0)
      .catch(() => false));

  function chatFilters(q: Knex.QueryBuilder, c: ChatSearchCriteria): Knex.QueryBuilder {
    q.where('c.user_id', c.userId);
    for (const tag of c.tags) q.whereRaw(tagSql, [tag]);
    if (c.after !== null) q.where('c.updated_at', '>=', c.after);
    if (c.before !== null) q.where('c.updated_at', '<', c.before);
    return q;
  }

  function filters(q: Knex.QueryBuilder, c: ChatSearchCriteria): Knex.QueryBuilder {
    return chatFilters(q, c).orderBy([{ column: 'c.activity_ms', order: 'desc' }, { column: 'c.rowid', order: 'desc' }]).offset(c.offset).limit(c.limit);
  }

  /** Chat id → rowid of its newest matching message, for the newest `want` chats (or all). */
  async function rankByMessages(c: ChatSearchCriteria, match: string, want: number): Promise<Map<string, number>> {
    const ranked = new Map<string, number>();
    for (let scan = Math.max(500, want * 20); ; ) {
      const q = postgres
        ? db({ m: 'chat_messages' })
            .join({ c: 'chats' }, 'c.id', 'm.chat_id')
            .whereRaw(`${PG_VECTOR('m.content')} @@ ${PG_QUERY}`, [match])
            .select<{ chat_id: string; r: number }[]>('m.chat_id as chat_id', 'm.rowid as r')
        : db({ f: 'chat_messages_fts' })
            .join({ m: 'chat_messages' }, 'm.rowid', 'f.rowid')
            .join({ c: 'chats' }, 'c.id', 'm.chat_id')
            .whereRaw('chat_messages_fts MATCH ?', [match])
            .select<{ chat_id: string; r: number }[]>('m.chat_id as chat_id', 'f.rowid as r');
      chatFilters(q, c).orderBy(postgres ? 'm.rowid' : 'f.rowid', 'desc').limit(scan);
      const rows = await q;
      ranked.clear();
      for (const row of rows) if (!ranked.has(row.chat_id)) ranked.set(row.chat_id, row.r);
      if (ranked.size >= want || rows.length < scan) return ranked;
      // Scan far enough, judging by how many messages each chat has had so far.
      scan = Math.ceil((rows.length / Math.max(1, ranked.size)) * want * 1.5) + scan;
    }
  }

  /**
   * FTS path. Chats rank by their newest matching message (or, for a title match, their newest
   * message). Matches stream newest first (FTS5 reads a term's doclist by rowid descending) and the
   * scan stops once enough chats are found, so a word in half the messages costs about what a rare
   * one does. Whole words are tried first; the last word counts as a prefix only when whole words
   * fill less than the page (a prefix query must merge every matching term before it can stream).
   */
  async function byFts(c: ChatSearchCriteria & { fts: { exact: string; prefix: string } }): Promise<ChatSearchHit[]> {
    const want = c.offset + c.limit;
    const fts = postgres ? pgQueries(c.words) : c.fts;
    let match = fts.exact;
    let ranked = await rankByMessages(c, match, want);
    if (ranked.size < want && fts.prefix !== fts.exact) {
      match = fts.prefix;
      ranked = await rankByMessages(c, match, want);
    }
    const titleMatches = postgres
      ? db({ c: 'chats' }).whereRaw(`${PG_VECTOR('c.title')} @@ ${PG_QUERY}`, [match])
      : db({ ft: 'chats_fts' }).join({ c: 'chats' }, 'c.rowid', 'ft.rowid').whereRaw('chats_fts MATCH ?', [match]);
    const titles = chatFilters(titleMatches, c).select<{ id: string }[]>('c.id as id', db.raw('(SELECT MAX(rowid) FROM chat_messages WHERE chat_id = c.id) AS r'));
    for (const t of (await titles) as unknown as Array<{ id: string; r: number | null }>) {
      if (!ranked.has(t.id)) ranked.set(t.id, -1 - (t.r ?? 0) / 1e12); // after message hits of the same recency
    }
    const keyOf = (id: string) => { const r = ranked.get(id)!; return r >= 0 ? r : (-1 - r) * 1e12 - 0.5; };
    const page = [...ranked.keys()].sort((a, b) => keyOf(b) - keyOf(a)).slice(c.offset, c.offset + c.limit);
    if (page.length === 0) return [];
    const rows = (await db({ c: 'chats' }).select(db.raw(COLS)).whereIn('c.id', page)) as ChatRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const rowids = page.map((id) => ranked.get(id)!).filter((r) => r >= 0);
    const contents = new Map<number, string>();
    if (rowids.length > 0) {
      const found = (await db('chat_messages').whereIn('rowid', rowids).select('rowid as r', 'content')) as Array<{ r: number; content: string }>;
      for (const f of found) contents.set(f.r, f.content);
    }
    return page.flatMap((id) => {
      const row = byId.get(id);
      const r = ranked.get(id)!;
      return row ? [{ row, passage: r >= 0 ? (contents.get(r) ?? null) : null, via: 'fts' as const }] : [];
    });
  }

  async function byLike(c: ChatSearchCriteria): Promise<ChatSearchHit[]> {
    const q = db({ c: 'chats' }).select(db.raw(COLS));
    for (const word of c.words) {
      const p = likePattern(word);
      q.where((w) => {
        w.whereRaw("lower(c.title) LIKE ? ESCAPE '\\'", [p]).orWhereRaw("EXISTS (SELECT 1 FROM chat_messages m WHERE m.chat_id = c.id AND lower(m.content) LIKE ? ESCAPE '\\')", [p]);
      });
    }
    const rows = (await filters(q, c)) as ChatRow[];
    if (rows.length === 0 || c.words.length === 0) return rows.map((row) => ({ row, passage: null, via: 'like' as const }));
    const first = likePattern(c.words[0]!);
    const hits = await db('chat_messages')
      .whereIn('chat_id', rows.map((r) => r.id))
      .whereRaw("lower(content) LIKE ? ESCAPE '\\'", [first])
      .orderBy('seq', 'asc')
      .select<{ chat_id: string; content: string }[]>('chat_id', 'content');
    const best = new Map<string, string>();
    for (const h of hits) if (!best.has(h.chat_id)) best.set(h.chat_id, h.content);
    return rows.map((row) => ({ row, passage: best.get(row.id) ?? null, via: 'like' as const }));
  }

  return {
    /** One page of a user's chats that match, newest activity first. */
    async search(c: ChatSearchCriteria): Promise<ChatSearchHit[]> {
      if (c.fts !== null && (await ftsAvailable())) return byFts({ ...c, fts: c.fts });
      return byLike(c);
    },
  };
}
export type ChatSearchRepo = ReturnType<typeof createChatSearchRepo>;
