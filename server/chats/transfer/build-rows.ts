import { writeJson } from '../../platform/db/json';
import { newId } from '../../platform/ids';
import { DEFAULT_CHAT_TITLE } from '../chats.service';
import type { ChatRow, NewMessageRow } from '../chats.repo';
import type { ImportedChat, ImportedNode } from './imported-chat';

/** The rows of an imported chat, with fresh ids; parents always come before their children. */
export interface BuiltChat {
  chat: ChatRow;
  messages: NewMessageRow[];
}

/** How far ahead of this clock an imported time may be (the exporting machine's clock may run a little fast). */
const CLOCK_SKEW_SECONDS = 300;

/**
 * Turns an imported chat into rows for `userId`: skipped nodes drop out and their children hang
 * on the nearest kept ancestor; siblings keep their time order; the shown branch is kept. The
 * chat gets `chatId` (fresh unless given).
 */
export function buildRows(userId: string, source: ImportedChat, nowMs: number, chatId: string = newId()): BuiltChat {
  const byId = new Map<string, ImportedNode>();
  for (const n of source.nodes) if (!byId.has(n.id)) byId.set(n.id, n);

  const keptAncestor = (id: string | null): string | null => {
    const seen = new Set<string>();
    for (let at = id; at !== null && !seen.has(at); at = byId.get(at)?.parent ?? null) {
      seen.add(at);
      const node = byId.get(at);
      if (!node) return null;
      if (node.role !== null) return at;
    }
    return null;
  };

  const kept = [...byId.values()].filter((n) => n.role !== null);
  const children = new Map<string | null, ImportedNode[]>();
  for (const n of kept) {
    const parent = keptAncestor(n.parent);
    const list = children.get(parent);
    if (list) list.push(n);
    else children.set(parent, [n]);
  }
  for (const list of children.values()) list.sort((a, b) => (a.created_at ?? 0) - (b.created_at ?? 0));

  const now = Math.floor(nowMs / 1000);
  // A time later than now (beyond a clock's small skew) is impossible: read as unknown, as a missing one is.
  const plausible = (at: number | null | undefined): number | null => (at !== null && at !== undefined && at <= now + CLOCK_SKEW_SECONDS ? at : null);
  const newIds = new Map<string, string>();
  const messages: NewMessageRow[] = [];
  const stack: Array<{ node: ImportedNode; parent: string | null }> = [...(children.get(null) ?? [])].reverse().map((node) => ({ node, parent: null }));
  const visited = new Set<string>();
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if (visited.has(node.id)) continue;
    visited.add(node.id);
    const id = newId();
    newIds.set(node.id, id);
    const created = plausible(node.created_at) ?? plausible(source.created_at) ?? now;
    messages.push({
      id,
      chat_id: chatId,
      parent_id: parent,
      role: node.role!,
      content: node.content,
      model: node.model,
      status: node.status ?? 'complete',
      error: node.error ?? null,
      usage: node.usage === undefined || node.usage === null ? null : writeJson(node.usage),
      sources: node.sources && node.sources.length > 0 ? writeJson(node.sources) : null,
      files: node.files && node.files.length > 0 ? writeJson(node.files) : null,
      follow_ups: node.follow_ups && node.follow_ups.length > 0 ? writeJson(node.follow_ups) : null,
      tool_steps: node.tool_steps && node.tool_steps.length > 0 ? writeJson(node.tool_steps) : null,
      created_at: created,
      updated_at: created,
    });
    for (const child of [...(children.get(node.id) ?? [])].reverse()) stack.push({ node: child, parent: id });
  }

  let current = source.current === null ? null : keptAncestor(source.current);
  if (current === null && messages.length > 0) {
    let at: ImportedNode | undefined = (children.get(null) ?? []).at(-1);
    while (at && (children.get(at.id) ?? []).length > 0) at = children.get(at.id)!.at(-1);
    current = at?.id ?? null;
  }
  const created = plausible(source.created_at) ?? messages[0]?.created_at ?? now;
  const updated = Math.max(created, plausible(source.updated_at) ?? messages.at(-1)?.created_at ?? created);
  const chat: ChatRow = {
    id: chatId,
    user_id: userId,
    title: source.title.trim().slice(0, 500) || DEFAULT_CHAT_TITLE,
    pinned: source.pinned,
    archived: source.archived,
    folder_id: null,
    current_message_id: current === null ? null : (newIds.get(current) ?? null),
    tags: writeJson(source.tags),
    share_id: null,
    created_at: created,
    updated_at: updated,
    activity_ms: updated * 1000,
  };
  return { chat, messages };
}
