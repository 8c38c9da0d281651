import type { CompletionRequest } from '../../contracts/completions';
import type { FilesService } from '../../files';
import type { ResolvedModel } from '../../models';
import type { CompletionCaller, FileRef } from '../pipeline-types';

/**
 * Stage 2: the files and knowledge bases in play: those sent with the request (files must be
 * the caller's: 404/403 otherwise), those attached to the chat, and the model's knowledge.
 * Knowledge base access is the retrieval stage's to check.
 */
export async function filesStage(
  deps: { files: FilesService },
  user: CompletionCaller,
  request: CompletionRequest,
  chatAttachmentIds: readonly string[],
  meta: ResolvedModel['meta'],
): Promise<FileRef[]> {
  const refs: FileRef[] = [];
  const seen = new Set<string>();
  const add = (ref: FileRef) => {
    const key = `${ref.type}:${ref.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    refs.push(ref);
  };
  for (const f of request.files ?? []) {
    if (f.type === 'note') continue; // notes are read by the notes domain (NoteSourcer)
    if (f.type === 'file') {
      const row = await deps.files.requireReadable(user, f.id);
      add({ type: 'file', id: row.id, origin: 'request', name: row.filename });
    } else {
      add({ type: 'collection', id: f.id, origin: 'request' });
    }
  }
  for (const id of chatAttachmentIds) add({ type: 'file', id, origin: 'chat' });
  for (const k of meta.knowledge) add({ type: k.type === 'file' ? 'file' : 'collection', id: k.id, origin: 'model', name: k.name });
  return refs;
}

/** The model's context window in tokens when its settings name one (`num_ctx`, as Ollama-style models do). */
export function contextTokensOf(resolved: Pick<ResolvedModel, 'params'>): number | undefined {
  const value = resolved.params.extra.num_ctx;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
