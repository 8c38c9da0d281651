import type { ChannelMessage } from '../contracts/channels';
import type { Clock } from '../platform/clock';
import { presentMessage, type MessageContext } from './channels.present';
import type { AuthorRow, MessageRow, MessagesRepo, MessageFileRow, ReactionRow } from './messages.repo';

function groupBy<T>(list: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

/** A message just written, presented from what its writer knows (no reactions or replies yet): no query on the posting path. */
export function presentNew(row: MessageRow, author: AuthorRow, files: readonly MessageFileRow[], nowMs: number): ChannelMessage {
  return presentMessage(row, { authors: new Map([[author.id, author]]), reactions: new Map(), replies: new Map(), files: new Map([[row.id, [...files]]]), nowMs });
}

/**
 * Presents messages with what readers see around them, read once per page whatever its size:
 * authors, reactions, thread counts and files (four queries, never one per message).
 */
export function createMessagePresenter(repo: MessagesRepo, clock: Clock) {
  return async function present(rows: readonly MessageRow[]): Promise<ChannelMessage[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const topLevel = rows.filter((r) => r.parent_id === null).map((r) => r.id);
    const [authors, reactions, replies, files] = await Promise.all([repo.authors(rows.map((r) => r.user_id)), repo.reactions(ids), repo.replyStats(topLevel), repo.files(ids)]);
    const ctx: MessageContext = {
      authors: new Map(authors.map((a) => [a.id, a])),
      reactions: groupBy<ReactionRow>(reactions, (r) => r.message_id),
      replies,
      files: groupBy<MessageFileRow>(files, (f) => f.message_id),
      nowMs: clock.nowMs(),
    };
    return rows.map((row) => presentMessage(row, ctx));
  };
}
export type MessagePresenter = ReturnType<typeof createMessagePresenter>;
