import { ImportSkip, obj, seconds, sourceId, str, type ImportedChat, type ImportedNode } from './imported-chat';

/** True for an entry of ChatGPT's conversations.json: `{mapping: {id: {message, parent, children}}, current_node}`. */
export function isChatGpt(entry: Record<string, unknown>): boolean {
  return !!obj(entry.mapping);
}

/** The text of a ChatGPT message, or why it was left out. */
function textOf(message: Record<string, unknown>): { text: string } | { skip: string } {
  const content = obj(message.content);
  const type = str(content?.content_type);
  const parts = Array.isArray(content?.parts) ? content.parts : [];
  if (type === 'text') return { text: parts.filter((p): p is string => typeof p === 'string').join('\n') };
  if (type === 'multimodal_text') {
    const text = parts.filter((p): p is string => typeof p === 'string').join('\n');
    const others = parts.length - parts.filter((p) => typeof p === 'string').length;
    return others > 0 && text === '' ? { skip: `${others} image or file part(s) without text` } : { text };
  }
  if (type === 'code' && typeof content?.text === 'string') return { skip: 'code run by a ChatGPT tool' };
  return { skip: `content type '${type || 'none'}'` };
}

/** Reads one ChatGPT conversation: the message tree, text parts and model names; tool calls, images and hidden nodes are skipped. */
export function readChatGpt(entry: Record<string, unknown>): ImportedChat {
  const mapping = obj(entry.mapping);
  if (!mapping) throw new ImportSkip('no mapping');
  const notes: string[] = [];
  let skipped = 0;
  const nodes: ImportedNode[] = [];
  for (const [key, raw] of Object.entries(mapping)) {
    const n = obj(raw);
    if (!n) continue;
    const id = str(n.id, key);
    const parent = typeof n.parent === 'string' ? n.parent : null;
    const message = obj(n.message);
    const link: ImportedNode = { id, parent, role: null, content: '', model: null, created_at: null };
    if (!message) {
      nodes.push(link);
      continue;
    }
    const role = str(obj(message.author)?.role);
    const metadata = obj(message.metadata);
    const got = textOf(message);
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      skipped += 1;
      notes.push(`${role || 'unknown'} message skipped (tool output)`);
      nodes.push(link);
    } else if ('skip' in got) {
      skipped += 1;
      notes.push(`${role} message skipped: ${got.skip}`);
      nodes.push(link);
    } else if (got.text.trim() === '' || metadata?.is_visually_hidden_from_conversation === true) {
      if (role !== 'system') {
        skipped += 1;
        notes.push(`empty ${role} message skipped`);
      }
      nodes.push(link);
    } else {
      nodes.push({ id, parent, role, content: got.text, model: typeof metadata?.model_slug === 'string' ? metadata.model_slug : null, created_at: seconds(message.create_time), status: 'complete' });
    }
  }
  return {
    source_id: sourceId(entry.conversation_id, entry.id),
    title: str(entry.title),
    created_at: seconds(entry.create_time),
    updated_at: seconds(entry.update_time),
    pinned: false,
    archived: entry.is_archived === true,
    tags: [],
    folder_name: null,
    folder_path: [],
    current: typeof entry.current_node === 'string' ? entry.current_node : null,
    nodes,
    skipped,
    notes: [...new Set(notes)],
  };
}
