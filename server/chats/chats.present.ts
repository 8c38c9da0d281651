import type { Chat, ChatListEntry, ChatMessage, MessageRole, MessageSource, MessageToolStep, MessageUsage } from '../contracts/chats';
import { readJson } from '../platform/db/json';
import type { ChatRow, MessageRow } from './chats.repo';

/** Row → list entry. */
export function presentChatEntry(row: ChatRow): ChatListEntry {
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    created_at: row.created_at,
    updated_at: row.updated_at,
    pinned: Boolean(row.pinned),
    archived: Boolean(row.archived),
    folder_id: row.folder_id,
    tags: readJson<string[]>(row.tags, []),
    share_id: row.share_id ?? null,
  };
}

/** Row → message, with the ids of its children. */
export function presentMessage(row: MessageRow, childrenIds: string[] = []): ChatMessage {
  return {
    id: row.id,
    parent_id: row.parent_id,
    children_ids: childrenIds,
    role: row.role as MessageRole,
    content: row.content,
    model: row.model,
    status: row.status === 'interrupted' || row.status === 'streaming' ? row.status : 'complete',
    error: row.error,
    usage: readJson<MessageUsage | null>(row.usage, null),
    sources: readJson<MessageSource[]>(row.sources, []),
    files: readJson<Array<{ type: string; id: string }>>(row.files, []),
    follow_ups: readJson<string[]>(row.follow_ups, []),
    tool_steps: readJson<MessageToolStep[]>(row.tool_steps ?? null, []),
    created_at: row.created_at,
  };
}

/** Chat row and every message → the single-chat shape: the branch shown plus the whole tree. */
export function presentChat(row: ChatRow, messages: readonly MessageRow[]): Chat {
  const children = new Map<string, string[]>();
  for (const m of messages) {
    if (m.parent_id === null) continue;
    const list = children.get(m.parent_id);
    if (list) list.push(m.id);
    else children.set(m.parent_id, [m.id]);
  }
  const byId: Record<string, ChatMessage> = {};
  for (const m of messages) byId[m.id] = presentMessage(m, children.get(m.id) ?? []);

  const branch: ChatMessage[] = [];
  const seen = new Set<string>();
  for (let id = row.current_message_id; id !== null && byId[id] && !seen.has(id); id = byId[id]!.parent_id) {
    seen.add(id);
    branch.push(byId[id]!);
  }
  branch.reverse();

  return {
    ...presentChatEntry(row),
    current_message_id: row.current_message_id,
    messages: branch,
    history: { current_id: row.current_message_id, messages: byId },
  };
}

/** The newest leaf below `id` (following the latest child at each step), for switching branches. */
export function latestLeafUnder(messages: readonly MessageRow[], id: string): string {
  const latestChild = new Map<string, string>();
  for (const m of messages) if (m.parent_id !== null) latestChild.set(m.parent_id, m.id); // rows come in seq order
  let leaf = id;
  const seen = new Set<string>([leaf]);
  for (let next = latestChild.get(leaf); next !== undefined && !seen.has(next); next = latestChild.get(leaf)) {
    seen.add(next);
    leaf = next;
  }
  return leaf;
}
