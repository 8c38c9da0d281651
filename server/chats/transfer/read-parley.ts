import { ImportSkip, obj, seconds, sourceId, str, tagList, type ImportedChat, type ImportedNode } from './imported-chat';

const ROLES = new Set(['system', 'user', 'assistant']);

/** True for an entry of Parley's own export (`parley_export: 1`). */
export function isParleyExport(entry: Record<string, unknown>): boolean {
  return entry.parley_export === 1;
}

/** Reads one chat of Parley's export: every branch, sources, files, usage and follow-ups. */
export function readParley(entry: Record<string, unknown>): ImportedChat {
  const history = obj(entry.history);
  const messages = obj(history?.messages);
  if (!messages) throw new ImportSkip('no history.messages');
  const notes: string[] = [];
  let skipped = 0;
  const nodes: ImportedNode[] = [];
  for (const [key, raw] of Object.entries(messages)) {
    const m = obj(raw);
    if (!m) {
      skipped += 1;
      continue;
    }
    const role = str(m.role);
    const known = ROLES.has(role);
    if (!known) {
      skipped += 1;
      notes.push(`message ${key}: unknown role '${role}'`);
    }
    nodes.push({
      id: str(m.id, key),
      parent: typeof m.parent_id === 'string' ? m.parent_id : null,
      role: known ? (role as ImportedNode['role']) : null,
      content: str(m.content),
      model: typeof m.model === 'string' ? m.model : null,
      created_at: seconds(m.created_at),
      status: m.status === 'interrupted' ? 'interrupted' : 'complete',
      error: typeof m.error === 'string' ? m.error : null,
      usage: m.usage ?? null,
      sources: Array.isArray(m.sources) ? m.sources : [],
      files: Array.isArray(m.files) ? m.files : [],
      follow_ups: Array.isArray(m.follow_ups) ? m.follow_ups.filter((f): f is string => typeof f === 'string') : [],
      tool_steps: Array.isArray(m.tool_steps) ? m.tool_steps.filter((t) => typeof t === 'object' && t !== null) : [],
    });
  }
  return {
    source_id: sourceId(entry.id),
    title: str(entry.title),
    created_at: seconds(entry.created_at),
    updated_at: seconds(entry.updated_at),
    pinned: entry.pinned === true,
    archived: entry.archived === true,
    tags: tagList(entry.tags),
    folder_name: typeof entry.folder_name === 'string' ? entry.folder_name : null,
    folder_path: Array.isArray(entry.folder_path) && entry.folder_path.every((n) => typeof n === 'string') ? (entry.folder_path as string[]) : typeof entry.folder_name === 'string' ? [entry.folder_name] : [],
    current: typeof history?.current_id === 'string' ? history.current_id : null,
    nodes,
    skipped,
    notes,
  };
}
