/**
 * Reads JSON out of model output, which is often wrapped in prose, Markdown fences or
 * reasoning blocks, and sometimes slightly broken (trailing commas, curly quotes).
 */

const THINK_BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;
const FENCE = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/g;

/** Balanced `{…}` and `[…]` spans of `text`, outermost first, skipping brackets inside strings. */
function balancedSpans(text: string): string[] {
  const spans: string[] = [];
  for (let start = 0; start < text.length; start += 1) {
    const open = text[start];
    if (open !== '{' && open !== '[') continue;
    const stack: string[] = [];
    let inString = false;
    let escaped = false;
    for (let i = start; i < text.length; i += 1) {
      const c = text[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
      else if (c === '}' || c === ']') {
        if (stack.pop() !== c) break;
        if (stack.length === 0) {
          spans.push(text.slice(start, i + 1));
          start = i; // continue after this span
          break;
        }
      }
    }
  }
  return spans;
}

/** Small repairs of almost-JSON: curly quotes and trailing commas. */
function repair(text: string): string {
  return text
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/,\s*([}\]])/g, '$1');
}

function tryParse(text: string): unknown {
  for (const candidate of [text, repair(text)]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // next
    }
  }
  return undefined;
}

/** Every JSON value found in `text`, in order of preference: the whole text, fenced blocks, then embedded spans. */
export function extractJsonValues(text: string): unknown[] {
  const cleaned = text.replace(THINK_BLOCK, '').trim();
  const candidates = [cleaned];
  for (const match of cleaned.matchAll(FENCE)) candidates.push(match[1]!.trim());
  candidates.push(...balancedSpans(cleaned));
  const values: unknown[] = [];
  for (const candidate of candidates) {
    const value = tryParse(candidate);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** The first JSON object in `text` that has `key`, and that key's value. */
export function extractJsonField(text: string, key: string): unknown {
  for (const value of extractJsonValues(text)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && key in value) return (value as Record<string, unknown>)[key];
  }
  return undefined;
}

/** A list of non-empty, distinct strings under `key` (or a bare JSON array of strings), at most `max`. */
export function extractStringList(text: string, key: string, max: number): string[] | undefined {
  let raw = extractJsonField(text, key);
  if (raw === undefined) raw = extractJsonValues(text).find((v) => Array.isArray(v));
  if (!Array.isArray(raw)) return undefined;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of raw) {
    const value = typeof item === 'string' ? item.trim() : typeof item === 'number' ? String(item) : '';
    const folded = value.toLowerCase();
    if (!value || seen.has(folded)) continue;
    seen.add(folded);
    out.push(value);
    if (out.length >= max) break;
  }
  return out;
}
