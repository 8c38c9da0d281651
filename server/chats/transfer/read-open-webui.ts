import { ImportSkip, obj, seconds, sourceId, str, tagList, type ImportedChat, type ImportedNode } from './imported-chat';

/**
 * True for an Open WebUI export entry: `{chat: {history: {messages, currentId}}, …}` (its
 * "Export chats" file and `GET /api/v1/chats/all`), or a bare `chat` object with `history`.
 */
export function isOpenWebUi(entry: Record<string, unknown>): boolean {
  const chat = obj(entry.chat) ?? entry;
  const history = obj(chat.history);
  return !!history && !!obj(history.messages) && ('currentId' in history || Object.values(obj(history.messages) ?? {}).some((m) => obj(m)?.parentId !== undefined));
}

/** Reads one Open WebUI chat: its message tree (`parentId`/`childrenIds`), models, sources and tags. */
export function readOpenWebUi(entry: Record<string, unknown>): ImportedChat {
  const chat = obj(entry.chat) ?? entry;
  const history = obj(chat.history);
  const messages = obj(history?.messages);
  if (!messages) throw new ImportSkip('no chat.history.messages');
  const notes: string[] = [];
  let skipped = 0;
  const nodes: ImportedNode[] = [];
  for (const [key, raw] of Object.entries(messages)) {
    const m = obj(raw);
    if (!m) continue;
    const role = str(m.role);
    let keep: ImportedNode['role'] = role === 'user' || role === 'assistant' || role === 'system' ? role : null;
    const content = typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => str(obj(p)?.text)).join('') : '';
    if (keep === null) {
      skipped += 1;
      notes.push(`message ${key}: role '${role}' is not a chat role`);
    } else if (content === '' && !(Array.isArray(m.files) && m.files.length > 0)) {
      skipped += 1;
      notes.push(`message ${key}: empty ${role} message`);
      keep = null;
    }
    const models = Array.isArray(m.models) ? m.models : [];
    nodes.push({
      id: str(m.id, key),
      parent: typeof m.parentId === 'string' ? m.parentId : null,
      role: keep,
      content,
      model: typeof m.model === 'string' ? m.model : typeof models[0] === 'string' ? models[0] : null,
      created_at: seconds(m.timestamp),
      status: m.done === false ? 'interrupted' : 'complete',
      error: typeof obj(m.error)?.content === 'string' ? str(obj(m.error)?.content) : typeof m.error === 'string' ? m.error : null,
      usage: obj(m.usage) ?? null,
      sources: Array.isArray(m.sources) ? m.sources : Array.isArray(m.citations) ? m.citations : [],
      files: Array.isArray(m.files) ? m.files : [],
      follow_ups: Array.isArray(m.followUps) ? m.followUps.filter((f): f is string => typeof f === 'string') : [],
    });
  }
  const meta = obj(entry.meta);
  return {
    source_id: sourceId(entry.id, chat.id),
    title: str(entry.title) || str(chat.title),
    created_at: seconds(entry.created_at) ?? seconds(chat.timestamp),
    updated_at: seconds(entry.updated_at) ?? seconds(chat.timestamp),
    pinned: entry.pinned === true,
    archived: entry.archived === true,
    tags: tagList(meta?.tags ?? chat.tags),
    folder_name: null,
    folder_path: [],
    current: typeof history?.currentId === 'string' ? history.currentId : null,
    nodes,
    skipped,
    notes,
  };
}
