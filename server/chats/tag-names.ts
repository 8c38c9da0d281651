import { readJson } from '../platform/db/json';

/** The key a tag is matched by: tags are one tag whatever their case ("Work" and "work"). */
export function tagKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Tags with case-insensitive repeats dropped, the first spelling kept. */
export function uniqueTags(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const key = tagKey(name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

/**
 * The spellings of a user's tags, read from their chats' `tags` columns. A tag keeps the case it
 * was written in; a new tag matching a known one case-insensitively takes the known spelling,
 * so a stored tag's display name never changes (as Open WebUI matches tags by a lower-cased id).
 */
export class TagSpellings {
  private readonly known = new Map<string, string>();

  constructor(columns: readonly string[]) {
    for (const column of columns) for (const name of readJson<string[]>(column, [])) this.learn(name);
  }

  /** The known spelling of `name`, or `name` as written, which becomes known. */
  spell(name: string): string {
    return this.learn(name.trim());
  }

  /** `names` in their known spellings, case-insensitive repeats dropped. */
  spellAll(names: readonly string[]): string[] {
    return uniqueTags(names.map((n) => this.spell(n)));
  }

  private learn(name: string): string {
    const key = tagKey(name);
    const known = this.known.get(key);
    if (known !== undefined) return known;
    if (key) this.known.set(key, name);
    return name;
  }
}
