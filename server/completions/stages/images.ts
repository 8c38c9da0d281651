import { readFile } from 'node:fs/promises';
import type { FilesService } from '../../files';
import type { ChatMessage as ProviderMessage, ContentPart } from '../../providers';
import { VISION_IMAGE_TYPES } from '../../contracts/vision';
import type { FileRef } from '../pipeline-types';

/** Providers refuse bigger images (OpenAI's limit); a bigger one stays a plain attachment. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * Stage 2b: images attached to the turn or the chat go to a model that sees as `image_url` parts
 * of the last user message (data URLs: local and LAN providers cannot fetch this service's URLs;
 * the Ollama provider turns them into its `images`). They leave the retrieval files. A model that
 * cannot see gets the files unchanged (the UI says so before sending).
 */
export async function imagesStage(deps: { files: Pick<FilesService, 'findMany' | 'pathOf'> }, refs: FileRef[], messages: ProviderMessage[], canSee: boolean): Promise<{ refs: FileRef[]; messages: ProviderMessage[] }> {
  if (!canSee) return { refs, messages };
  const candidates = refs.filter((r) => r.type === 'file' && r.origin !== 'model').map((r) => r.id);
  if (candidates.length === 0) return { refs, messages };
  const rows = (await deps.files.findMany(candidates)).filter((row) => VISION_IMAGE_TYPES.includes(row.mime_type) && row.size <= MAX_IMAGE_BYTES);
  const last = messages.findLastIndex((m) => m.role === 'user');
  if (rows.length === 0 || last < 0) return { refs, messages };
  const byId = new Map(rows.map((row) => [row.id, row]));
  const parts: ContentPart[] = [];
  for (const id of candidates) {
    const row = byId.get(id);
    if (!row) continue;
    const bytes = await readFile(deps.files.pathOf(row.id));
    parts.push({ type: 'image_url', image_url: { url: `data:${row.mime_type};base64,${bytes.toString('base64')}` } });
  }
  const message = messages[last]!;
  const content: ContentPart[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...(message.content ?? [])];
  const next = [...messages];
  next[last] = { ...message, content: [...content, ...parts] };
  return { refs: refs.filter((r) => !(r.type === 'file' && byId.has(r.id))), messages: next };
}
