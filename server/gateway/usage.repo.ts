import type { Db } from '../platform/db/knex';

/** A row of `api_usage`: one user, model and UTC day. */
export interface UsageRow {
  user_id: string;
  model: string;
  day: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A usage row with the user's name and email, for the admin table. */
export interface UsageWithUserRow extends UsageRow {
  user_name: string | null;
  user_email: string | null;
}

/** knex access to `api_usage`. */
export function createUsageRepo(db: Db) {
  return {
    /** Adds one request and its tokens to the (user, model, day) row, creating it when new. */
    async add(row: UsageRow): Promise<void> {
      await db('api_usage')
        .insert(row)
        .onConflict(['user_id', 'model', 'day'])
        .merge({
          requests: db.raw('api_usage.requests + excluded.requests'),
          prompt_tokens: db.raw('api_usage.prompt_tokens + excluded.prompt_tokens'),
          completion_tokens: db.raw('api_usage.completion_tokens + excluded.completion_tokens'),
          total_tokens: db.raw('api_usage.total_tokens + excluded.total_tokens'),
        });
    },
    /** Rows from `sinceDay` on, newest day first. */
    async since(sinceDay: string): Promise<UsageWithUserRow[]> {
      return db('api_usage as u')
        .leftJoin('users', 'users.id', 'u.user_id')
        .where('u.day', '>=', sinceDay)
        .select('u.*', 'users.name as user_name', 'users.email as user_email')
        .orderBy([
          { column: 'u.day', order: 'desc' },
          { column: 'users.name', order: 'asc' },
          { column: 'u.model', order: 'asc' },
        ]);
    },
  };
}
export type UsageRepo = ReturnType<typeof createUsageRepo>;
