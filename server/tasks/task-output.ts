import { extractJsonField, extractStringList } from './json-extract';
import { contentText, type TemplateMessage } from './template';

/** Longest title kept. */
const TITLE_MAX = 80;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Longest fallback title, cut at a word boundary. */
const FALLBACK_MAX = 50;

/** `text` cut to at most `max` characters at the last word boundary (mid-word only for one long word), with an ellipsis when cut. */
function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  // [\s,;:.\-–—]: escaped, so the built chunk's source stays one byte a character.
  return `${cut.replace(/[\s,;:.\-\u2013\u2014]+$/u, '')}…`;
}

/** A title from the first user message, when no model writes one (turned off, failed, empty or junk answer). */
export function fallbackTitle(messages: readonly TemplateMessage[]): string {
  const first = messages.find((m) => m.role === 'user');
  const text = contentText(first?.content).replace(/\s+/g, ' ').trim();
  return text ? clipAtWord(text, FALLBACK_MAX) : 'New Chat';
}

/** The title in a task answer: the JSON `title`, else its first plain line. */
export function parseTitle(raw: string): string | undefined {
  const value = extractJsonField(raw, 'title');
  let title = typeof value === 'string' ? value : undefined;
  if (title === undefined) {
    const line = raw
      .replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('```') && !/^[{}[\]]+$/.test(l));
    title = line?.replace(/^(#+\s*|title\s*:\s*)/i, '');
  }
  // Markdown emphasis and code marks are not part of a title shown as plain text.
  title = title?.replace(/\*\*|__|`/g, '').replace(/^["'*\s]+|["'*\s.:]+$/g, '').replace(/\s+/g, ' ');
  // Junk (only punctuation or symbols, a stray JSON fragment) is no title.
  if (!title || !/[\p{L}\p{N}]/u.test(title) || /^\{|^\[.*\]$/.test(title)) return undefined;
  return clip(title, TITLE_MAX);
}

/** Tags from a task answer (`{"tags": [...]}`), at most 6. */
export function parseTags(raw: string): string[] {
  return (extractStringList(raw, 'tags', 6) ?? []).map((t) => clip(t, 40));
}

/** A suggestion must read as a question: letters in it, not a bare number or citation marker like "[1]". */
function isQuestion(text: string): boolean {
  return /\p{L}{2}/u.test(text);
}

/**
 * Follow-up questions from a task answer: only the strings of its JSON `follow_ups` array that read
 * as questions. Anything else (prose, a bare array such as a citation "[1]" in the text, numbers) gives none.
 */
export function parseFollowUps(raw: string): string[] {
  const listed = extractJsonField(raw, 'follow_ups');
  if (!Array.isArray(listed)) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of listed) {
    if (typeof item !== 'string') continue;
    const question = item.replace(/\s+/g, ' ').trim();
    const folded = question.toLowerCase();
    if (!isQuestion(question) || seen.has(folded)) continue;
    seen.add(folded);
    out.push(clip(question, 300));
    if (out.length >= 5) break;
  }
  return out;
}

/** Search queries from a task answer (`{"queries": [...]}`), at most 3. */
export function parseQueries(raw: string): string[] | undefined {
  return extractStringList(raw, 'queries', 3);
}

/** The prompt in an image prompt answer (`{"prompt": "..."}`), or undefined. */
export function parseImagePrompt(raw: string): string | undefined {
  const value = extractJsonField(raw, 'prompt');
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 4000) : undefined;
}

/** The continuation in an autocomplete answer (`{"text": "..."}`). */
export function parseCompletion(raw: string): string {
  const value = extractJsonField(raw, 'text');
  return typeof value === 'string' ? value : '';
}

/** Things to remember from a task answer (`{"memories": [...]}`), at most 3, each a short sentence. */
export function parseMemories(raw: string): string[] {
  return (extractStringList(raw, 'memories', 3) ?? []).map((m) => clip(m.replace(/\s+/g, ' ').trim(), 500)).filter((m) => /\p{L}{2}/u.test(m));
}

/** A free-text answer without the code fence some models wrap the whole of it in. */
export function unfenced(raw: string): string {
  const text = raw.trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  return (fenced ? fenced[1]! : text).trim();
}
