import type { Db } from '../platform/db/knex';

/** A row of `notes` (JSON columns as text). */
export interface NoteRow {
  id: string;
  user_id: string;
  title: string;
  data: string | null;
  meta: string | null;
  access_control: string | null;
  version: number;
  language: string;
  created_at: number;
  updated_at: number;
}

/** What the search catalog reads of every note. */
export type NoteIndexRow = Pick<NoteRow, 'id' | 'user_id' | 'title' | 'data' | 'access_control' | 'language' | 'created_at' | 'updated_at'>;

const INDEX_COLUMNS = ['id', 'user_id', 'title', 'data', 'access_control', 'language', 'created_at', 'updated_at'] as const;

/** PostgreSQL hands bigint columns back as strings: numbers again. */
function numbers<T extends { created_at: number; updated_at: number }>(row: T): T {
  return { ...row, created_at: Number(row.created_at), updated_at: Number(row.updated_at) };
}

/** knex access to `notes`. */
export function createNotesRepo(db: Db) {
  return {
    async find(id: string): Promise<NoteRow | undefined> {
      const row = await db<NoteRow>('notes').where({ id }).first();
      return row ? { ...numbers(row), version: Number(row.version) } : undefined;
    },
    /** Rows by id, in no particular order. */
    async findMany(ids: readonly string[]): Promise<NoteRow[]> {
      const out: NoteRow[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db<NoteRow>('notes').whereIn('id', ids.slice(i, i + 500));
        out.push(...rows.map((r) => ({ ...numbers(r), version: Number(r.version) })));
      }
      return out;
    },
    /** One page of every note in id order, after `afterId` (the search catalog reads them all this way). */
    async indexPage(afterId: string | null, limit: number): Promise<NoteIndexRow[]> {
      const query = db<NoteRow>('notes').select(...INDEX_COLUMNS).orderBy('id').limit(limit);
      if (afterId !== null) void query.where('id', '>', afterId);
      return (await query).map(numbers);
    },
    async insert(row: NoteRow): Promise<void> {
      await db('notes').insert(row);
    },
    /** Writes a change made from `version`; false when the note was saved (or deleted) since. */
    async update(id: string, version: number, change: Omit<NoteRow, 'id' | 'user_id' | 'created_at'>): Promise<boolean> {
      return (await db('notes').where({ id, version }).update(change)) > 0;
    },
    async delete(id: string): Promise<boolean> {
      return (await db('notes').where({ id }).delete()) > 0;
    },
  };
}
export type NotesRepo = ReturnType<typeof createNotesRepo>;
