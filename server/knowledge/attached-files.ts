import type { CompletionSource } from '../contracts/completions';
import type { SearchHit } from '../retrieval';

/** The usual estimate of characters per token, for budgeting text we do not tokenise. */
export const CHARS_PER_TOKEN = 4;
/** The context window assumed when a model does not state one (`params.num_ctx`), in tokens. */
export const DEFAULT_CONTEXT_TOKENS = 32_768;
/** The share of the window attached files may fill; the rest is for the prompt, the conversation and the answer. */
const FILES_SHARE = 0.5;
/** How much of a file's beginning goes with its best passages when the whole file does not fit. */
const BEGINNING_CHARS = 1_500;
/** The longest overlap looked for between neighbouring chunks when a document is put back together. */
const MAX_OVERLAP = 2_000;

/** How a file attached to a message was given to the model. */
export type AttachedMode = 'full' | 'passages';

/** An attached file with its whole text, put back together from its chunks. */
export interface AttachedDocument {
  fileId: string;
  name: string;
  text: string;
}

/** Characters the attached files may fill for a model with this context window (tokens). */
export function attachedBudget(contextTokens: number | undefined): number {
  const tokens = contextTokens && contextTokens > 0 ? contextTokens : DEFAULT_CONTEXT_TOKENS;
  return Math.floor(tokens * FILES_SHARE * CHARS_PER_TOKEN);
}

/** Appends `next` to `text`, dropping the part of `next` that repeats the end of `text` (chunk overlap). */
function appendOverlapping(text: string, next: string): string {
  if (!text) return next;
  const max = Math.min(MAX_OVERLAP, text.length, next.length);
  for (let k = max; k > 0; k--) {
    if (text.endsWith(next.slice(0, k))) return text + next.slice(k);
  }
  return `${text}\n\n${next}`;
}

/**
 * A document's text from its chunks in order: parents once (parent/child chunking), overlapping
 * neighbours joined without the repeated part.
 */
export function documentText(chunks: ReadonlyArray<{ text: string; context: string | null }>): string {
  let out = '';
  let previous: string | null = null;
  for (const chunk of chunks) {
    const unit = chunk.context ?? chunk.text;
    if (unit === previous) continue;
    previous = unit;
    out = appendOverlapping(out, unit);
  }
  return out;
}

/**
 * How each file is sent within the budget: every file whole when they all fit; else the files
 * that fit in an even share go whole and the others get what is left, shared evenly, as passages.
 */
export function planAttached(docs: readonly AttachedDocument[], budget: number): Array<{ doc: AttachedDocument; mode: AttachedMode; chars: number }> {
  const total = docs.reduce((n, d) => n + d.text.length, 0);
  if (total <= budget) return docs.map((doc) => ({ doc, mode: 'full', chars: doc.text.length }));
  const bySize = [...docs].sort((a, b) => a.text.length - b.text.length);
  const plan = new Map<string, { doc: AttachedDocument; mode: AttachedMode; chars: number }>();
  let left = budget;
  let remaining = bySize.length;
  for (const doc of bySize) {
    const share = Math.floor(left / remaining);
    if (doc.text.length <= share) {
      plan.set(doc.fileId, { doc, mode: 'full', chars: doc.text.length });
      left -= doc.text.length;
    } else {
      plan.set(doc.fileId, { doc, mode: 'passages', chars: share });
      left -= share;
    }
    remaining -= 1;
  }
  return docs.map((d) => plan.get(d.fileId)!);
}

/** The beginning of a text, cut at a paragraph or sentence end when one is near. */
function beginningOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf('\n\n'), cut.lastIndexOf('. '));
  return end > max / 2 ? cut.slice(0, end + 1).trim() : cut;
}

/**
 * An attached file as a source: its whole text, or its beginning plus its best passages for the
 * question (hits of any relevance, best first) within `chars`. Never empty.
 */
export function attachedSource(doc: AttachedDocument, mode: AttachedMode, chars: number, hits: readonly SearchHit[]): CompletionSource {
  const source: CompletionSource = { source: { id: doc.fileId, name: doc.name, type: 'file' }, document: [], metadata: [], distances: [] };
  const push = (text: string, meta: Record<string, unknown>, score: number) => {
    source.document.push(text);
    source.metadata.push({ file_id: doc.fileId, name: doc.name, attached: mode, ...meta });
    source.distances!.push(score);
  };
  if (mode === 'full') {
    push(doc.text, { part: 'whole' }, 1);
    return source;
  }
  const beginning = beginningOf(doc.text, Math.min(BEGINNING_CHARS, Math.floor(chars / 4)));
  push(beginning, { part: 'beginning' }, 1);
  let used = beginning.length;
  const seen = new Set<string>([beginning]);
  for (const hit of hits) {
    if (seen.has(hit.text) || beginning.includes(hit.text)) continue;
    if (used + hit.text.length > chars) continue;
    seen.add(hit.text);
    used += hit.text.length;
    push(hit.text, { ...hit.meta, part: 'passage', chunk_id: hit.chunkId, relevance: hit.score }, hit.score);
  }
  return source;
}
