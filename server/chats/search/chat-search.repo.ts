import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';
import { LIST_COLUMNS, type ChatRow } from '../chats.repo';

/** What to look for; words already turned into an FTS query (or null) and LIKE patterns. */
export interface ChatSearchCriteria {
  userId: string;
  /** FTS5 query over titles and message text; null when the words have no letters or digits. */
  fts: string | null;
  /** The raw words, for the LIKE path (used when FTS cannot express them). */
  words: string[];
  tags: string[];
  after: number | null;
  before: number | null;
  offset: number;
  limit: number;
}

/** A chat that matched, with its best passage marked \u0001…\u0002 (FTS) or raw (LIKE). */
export interface ChatSearchHit {
  row: ChatRow;
  /** The best matching message passage; null when only the title or the filters matched. */
  passage: string | null;
  /** Whether `passage` carries FTS marks. */
  marked: boolean;
}

const COLS = LIST_COLUMNS.map((c) => `c.${c}`).join(', ');

function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Chat search storage. The SQLite path uses the FTS5 tables of migration 202611231700; any other
 * database (PostgreSQL later) or a query without letters or digits takes the LIKE path.
 */
export function createChatSearchRepo(db: Db) {
  let hasFts: Promise<boolean> | undefined;
  const ftsAvailable = () =>
    (hasFts ??= db
      .raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'chat_messages_fts'")
      .then((rows: unknown) => Array.isArray(rows) && rows.length > 0)
      .catch(() => false));

  function filters(q: Knex.QueryBuilder, c: ChatSearchCriteria): Knex.QueryBuilder {
    q.where('c.user_id', c.userId);
    for (const tag of c.tags) q.whereRaw('EXISTS (SELECT 1 FROM json_each(c.tags) WHERE lower(json_each.value) = ?)', [tag]);
    if (c.after !== null) q.where('c.updated_at', '>=', c.after);
    if (c.before !== null) q.where('c.updated_at', '<', c.before);
    return q.orderBy([{ column: 'c.activity_ms', order: 'desc' }, { column: 'c.rowid', order: 'desc' }]).offset(c.offset).limit(c.limit);
  }

  async function byFts(c: ChatSearchCriteria & { fts: string }): Promise<ChatSearchHit[]> {
    const q = db({ c: 'chats' }).select(db.raw(COLS));
    q.whereRaw(
      `c.id IN (SELECT m.chat_id FROM chat_messages_fts f JOIN chat_messages m ON m.rowid = f.rowid WHERE chat_messages_fts MATCH ?
        UNION SELECT t.id FROM chats_fts ft JOIN chats t ON t.rowid = ft.rowid WHERE chats_fts MATCH ?)`,
      [c.fts, c.fts],
    );
    const rows = (await filters(q, c)) as ChatRow[];
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const passages = (await db.raw(
      `SELECT m.chat_id AS chat_id, snippet(chat_messages_fts, 0, char(1), char(2), '…', 16) AS passage, f.rank AS rank
         FROM chat_messages_fts f JOIN chat_messages m ON m.rowid = f.rowid
        WHERE chat_messages_fts MATCH ? AND f.rowid IN (SELECT rowid FROM chat_messages WHERE chat_id IN (${ids.map(() => '?').join(',')}))`,
      [c.fts, ...ids],
    )) as Array<{ chat_id: string; passage: string; rank: number }>;
    const best = new Map<string, { passage: string; rank: number }>();
    for (const p of passages) {
      const seen = best.get(p.chat_id);
      if (!seen || p.rank < seen.rank) best.set(p.chat_id, p);
    }
    return rows.map((row) => ({ row, passage: best.get(row.id)?.passage ?? null, marked: true }));
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
    if (rows.length === 0 || c.words.length === 0) return rows.map((row) => ({ row, passage: null, marked: false }));
    const first = likePattern(c.words[0]!);
    const hits = await db('chat_messages')
      .whereIn('chat_id', rows.map((r) => r.id))
      .whereRaw("lower(content) LIKE ? ESCAPE '\\'", [first])
      .orderBy('seq', 'asc')
      .select<{ chat_id: string; content: string }[]>('chat_id', 'content');
    const best = new Map<string, string>();
    for (const h of hits) if (!best.has(h.chat_id)) best.set(h.chat_id, h.content);
    return rows.map((row) => ({ row, passage: best.get(row.id) ?? null, marked: false }));
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
