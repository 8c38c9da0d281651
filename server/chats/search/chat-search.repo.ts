import type { Knex } from 'knex';
import { dialectOf, type Db } from '../../platform/db/knex';
import { LIST_COLUMNS, type ChatRow } from '../chats.repo';
import { createChatWordIndex, wordTokens } from './chat-word-index';
import { createChatWordIndexRepo } from './chat-word-index.repo';
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
  /** The id of the message the passage is from (null with no passage). */
  messageId: string | null;
  /** How it was found: words (word starts, accents ignored; FTS5 or the word index) or LIKE substrings. */
  via: 'words' | 'like';
}

/** A chat whose title matched, with its newest message's rowid (null without messages). */
interface TitleMatch {
  cr: number;
  r: number | null;
}

/** Where word matches come from: the FTS5 tables, PostgreSQL's full-text search, or the in-memory word index. */
interface WordMatcher {
  /** Whether the prefix form differs from the whole-word one. */
  hasPrefixForm: boolean;
  rankByMessages(prefix: boolean, want: number): Promise<Map<number, number>>;
  titleMatches(prefix: boolean): Promise<TitleMatch[]>;
}

const COLS = LIST_COLUMNS.map((c) => `c.${c}`).join(', ');

function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** PostgreSQL: a column's words, case and accents folded (the expression the GIN indexes of migration 202611260102 cover). */
const PG_VECTOR = (column: string) => `to_tsvector('simple', parley_search_text(${column}))`;
const PG_QUERY = "to_tsquery('simple', parley_search_text(?))";

/** PostgreSQL: the words as tsqueries, all required; the prefix form lets the last one match word starts (as FTS5's `"term"*`). */
function pgQueries(words: readonly string[]): { exact: string; prefix: string } {
  const exact = ftsTerms(words).join(' & ');
  return { exact, prefix: `${exact}:*` };
}

/**
 * Chat search storage. Words are found through the FTS5 tables of migration 202611231700 on SQLite,
 * PostgreSQL's full-text search (migration 202611260102), or the in-memory word index (same rules,
 * same ranking) where the FTS5 tables are missing; a query without letters or digits takes the
 * LIKE (substring) path.
 */
export function createChatSearchRepo(db: Db, options: { useFts?: boolean } = {}) {
  const postgres = dialectOf(db) === 'postgres';
  // A tag filter: the chat's JSON text array holds the tag (compared lower-cased).
  const tagSql = postgres
    ? 'EXISTS (SELECT 1 FROM jsonb_array_elements_text(c.tags::jsonb) AS t(value) WHERE lower(t.value) = ?)'
    : 'EXISTS (SELECT 1 FROM json_each(c.tags) WHERE lower(json_each.value) = ?)';
  let hasFts: Promise<boolean> | undefined = options.useFts === false ? Promise.resolve(false) : undefined;
  const words = createChatWordIndex(createChatWordIndexRepo(db));
  const ftsAvailable = () =>
    (hasFts ??= db
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

  /**
   * Chat rowid → rowid of its newest matching message, for at least the `want` chats whose matches
   * are newest (all of them when fewer). Matches stream newest first (FTS5 reads a term's doclist by
   * rowid descending) in chunks that resume below the last one, and stop once enough chats are
   * found, so a word in half the messages costs about what a rare one does and a deep page costs
   * what its depth needs. Each match finds its chat through `chat_message_chats` (migration
   * 202611270301: one small row per message, instead of the message row and then the chat by its
   * text id); the chunk is grouped by chat in SQL, so the chat's own row (owner, tags, dates) is
   * read once per chat, not once per match, and a chunk comes back as one row: its eligible
   * `chat:message` pairs, how many matches it held and the lowest one.
   */
  async function rankByMessages(c: ChatSearchCriteria, match: string, want: number): Promise<Map<number, number>> {
    const ranked = new Map<number, number>();
    let below: number | null = null;
    let scanned = 0;
    for (let chunk = Math.max(500, want * 20); ; ) {
      const matches = db.from('chat_messages_fts').whereRaw('chat_messages_fts MATCH ?', [match]).select('rowid as r');
      if (below !== null) matches.where('rowid', '<', below);
      matches.orderBy('rowid', 'desc').limit(chunk);
      // The matches stay the outer loop (a LEFT JOIN is never reordered); chat 0 (none) never passes the filters.
      const perChat = db
        .from(db.raw('? AS h LEFT JOIN chat_message_chats AS o ON o.message_rowid = h.r', [matches]))
        .groupBy('cr')
        .select(db.raw('coalesce(o.chat_rowid, 0) AS cr, MAX(h.r) AS r, COUNT(*) AS k, MIN(h.r) AS lo'));
      const eligible = chatFilters(db({ c: 'chats' }).select(db.raw('1')).whereRaw('c.rowid = g.cr'), c);
      const [row] = (await db
        .from(perChat.as('g'))
        .select(db.raw("group_concat(CASE WHEN EXISTS ? THEN g.cr || ':' || g.r END) AS pairs, SUM(g.k) AS n, MIN(g.lo) AS lo", [eligible]))) as Array<{ pairs: string | null; n: number | null; lo: number | null }>;
      for (const pair of row?.pairs?.split(',') ?? []) {
        const colon = pair.indexOf(':');
        const chat = Number(pair.slice(0, colon));
        // A chat seen in an earlier (newer) chunk keeps its newer match.
        if (!ranked.has(chat)) ranked.set(chat, Number(pair.slice(colon + 1)));
      }
      const n = row?.n ?? 0;
      scanned += n;
      if (ranked.size >= want || n < chunk || row?.lo == null) return ranked;
      below = row.lo;
      // The next chunk: far enough for the missing chats, judging by how many matches (any owner's)
      // each chat found so far took.
      chunk = Math.ceil((scanned / Math.max(1, ranked.size)) * (want - ranked.size) * 1.25) + 500;
    }
  }

  /** Chats (rowid, newest message rowid) whose titles match. */
  async function titleMatches(c: ChatSearchCriteria, match: string): Promise<TitleMatch[]> {
    const q = db.from(db.raw('chats_fts AS ft CROSS JOIN chats AS c')).whereRaw('c.rowid = ft.rowid AND chats_fts MATCH ?', [match]);
    return (await chatFilters(q, c).select('c.rowid as cr', db.raw('(SELECT MAX(rowid) FROM chat_messages WHERE chat_id = c.id) AS r'))) as TitleMatch[];
  }

  /** The FTS5 tables as a matcher. */
  const ftsMatcher = (c: ChatSearchCriteria & { fts: { exact: string; prefix: string } }): WordMatcher => ({
    hasPrefixForm: c.fts.prefix !== c.fts.exact,
    rankByMessages: (prefix, want) => rankByMessages(c, prefix ? c.fts.prefix : c.fts.exact, want),
    titleMatches: (prefix) => titleMatches(c, prefix ? c.fts.prefix : c.fts.exact),
  });

  /** PostgreSQL's full-text search as a matcher: matches newest first, scanning further until enough chats are found. */
  function pgMatcher(c: ChatSearchCriteria): WordMatcher {
    const queries = pgQueries(c.words);
    const match = (prefix: boolean) => (prefix ? queries.prefix : queries.exact);
    return {
      hasPrefixForm: true,
      async rankByMessages(prefix, want) {
        const ranked = new Map<number, number>();
        for (let scan = Math.max(500, want * 20); ; ) {
          const q = db({ m: 'chat_messages' })
            .join({ c: 'chats' }, 'c.id', 'm.chat_id')
            .whereRaw(`${PG_VECTOR('m.content')} @@ ${PG_QUERY}`, [match(prefix)])
            .select<{ cr: number; r: number }[]>('c.rowid as cr', 'm.rowid as r');
          const rows = (await chatFilters(q, c).orderBy('m.rowid', 'desc').limit(scan)) as Array<{ cr: number; r: number }>;
          ranked.clear();
          for (const row of rows) if (!ranked.has(row.cr)) ranked.set(row.cr, row.r);
          if (ranked.size >= want || rows.length < scan) return ranked;
          // Scan far enough, judging by how many matches each chat has had so far.
          scan = Math.ceil((rows.length / Math.max(1, ranked.size)) * want * 1.5) + scan;
        }
      },
      async titleMatches(prefix) {
        const q = db({ c: 'chats' }).whereRaw(`${PG_VECTOR('c.title')} @@ ${PG_QUERY}`, [match(prefix)]);
        return (await chatFilters(q, c).select('c.rowid as cr', db.raw('(SELECT MAX(rowid) FROM chat_messages WHERE chat_id = c.id) AS r'))) as TitleMatch[];
      },
    };
  }

  /** The in-memory word index as a matcher (no FTS5), limited to the chats the filters let through. */
  async function indexMatcher(c: ChatSearchCriteria): Promise<WordMatcher> {
    const phrases = c.words.map(wordTokens).filter((p) => p.length > 0);
    let eligible: (chatRowid: number) => boolean = () => true;
    if (c.tags.length > 0 || c.after !== null || c.before !== null) {
      const [row] = (await chatFilters(db({ c: 'chats' }), c).select(db.raw('json_group_array(c.rowid) AS ids'))) as Array<{ ids: string }>;
      const allowed = new Set(JSON.parse(row?.ids ?? '[]') as number[]);
      eligible = (r) => allowed.has(r);
    }
    const view = await words.forUser(c.userId);
    return {
      hasPrefixForm: true,
      rankByMessages: async (prefix, want) => view.rankByMessages({ phrases, lastIsPrefix: prefix }, want, eligible),
      titleMatches: async (prefix) => view.titleMatches({ phrases, lastIsPrefix: prefix }, eligible),
    };
  }

  /**
   * Word search. Chats rank by their newest matching message (or, for a title match, their newest
   * message). Whole words are tried first; the last word counts as a prefix only when whole words
   * fill less than the page (a prefix query must merge every matching term before it can stream).
   */
  async function byWords(c: ChatSearchCriteria, matcher: WordMatcher): Promise<ChatSearchHit[]> {
    const want = c.offset + c.limit;
    let prefix = false;
    let ranked = await matcher.rankByMessages(prefix, want);
    if (ranked.size < want && matcher.hasPrefixForm) {
      prefix = true;
      ranked = await matcher.rankByMessages(prefix, want);
    }
    for (const t of await matcher.titleMatches(prefix)) {
      if (!ranked.has(t.cr)) ranked.set(t.cr, -1 - (t.r ?? 0) / 1e12); // after message hits of the same recency
    }
    const keyOf = (cr: number) => { const r = ranked.get(cr)!; return r >= 0 ? r : (-1 - r) * 1e12 - 0.5; };
    const page = [...ranked.keys()].sort((a, b) => keyOf(b) - keyOf(a)).slice(c.offset, c.offset + c.limit);
    if (page.length === 0) return [];
    const rows = (await db({ c: 'chats' }).select(db.raw(COLS), 'c.rowid as cr').whereIn('c.rowid', page)) as Array<ChatRow & { cr: number }>;
    const byRowid = new Map(rows.map(({ cr, ...row }) => [cr, row as ChatRow]));
    const rowids = page.map((cr) => ranked.get(cr)!).filter((r) => r >= 0);
    const contents = new Map<number, { id: string; content: string }>();
    if (rowids.length > 0) {
      const found = (await db('chat_messages').whereIn('rowid', rowids).select('rowid as r', 'id', 'content')) as Array<{ r: number; id: string; content: string }>;
      for (const f of found) contents.set(f.r, f);
    }
    return page.flatMap((cr) => {
      const row = byRowid.get(cr);
      const r = ranked.get(cr)!;
      const message = r >= 0 ? contents.get(r) : undefined;
      return row ? [{ row, passage: message?.content ?? null, messageId: message?.id ?? null, via: 'words' as const }] : [];
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
    if (rows.length === 0 || c.words.length === 0) return rows.map((row) => ({ row, passage: null, messageId: null, via: 'like' as const }));
    const first = likePattern(c.words[0]!);
    const hits = await db('chat_messages')
      .whereIn('chat_id', rows.map((r) => r.id))
      .whereRaw("lower(content) LIKE ? ESCAPE '\\'", [first])
      .orderBy('seq', 'asc')
      .select<{ chat_id: string; id: string; content: string }[]>('chat_id', 'id', 'content');
    const best = new Map<string, { id: string; content: string }>();
    for (const h of hits) if (!best.has(h.chat_id)) best.set(h.chat_id, h);
    return rows.map((row) => ({ row, passage: best.get(row.id)?.content ?? null, messageId: best.get(row.id)?.id ?? null, via: 'like' as const }));
  }

  return {
    /** One page of a user's chats that match, newest activity first. */
    async search(c: ChatSearchCriteria): Promise<ChatSearchHit[]> {
      if (c.fts === null) return byLike(c);
      if (postgres) return byWords(c, pgMatcher(c));
      if (await ftsAvailable()) return byWords(c, ftsMatcher({ ...c, fts: c.fts }));
      return byWords(c, await indexMatcher(c));
    },
  };
}
export type ChatSearchRepo = ReturnType<typeof createChatSearchRepo>;
