/** Someone or something a message can mention by name. */
export interface Mentionable {
  id: string;
  name: string;
}

/** What a message mentions. */
export interface Mentions {
  /** Members named with `@Name`, in the order they appear (no repeats). */
  userIds: string[];
  /** `@all`, `@here` or `@everyone` was written (pinging everyone still needs the right to). */
  everyone: boolean;
  /** The first model named with `@model-id` (or its name), which then answers. */
  modelId?: string;
}

const EVERYONE = /^(all|here|everyone)(?![\p{L}\p{N}_])/iu;
/**
 * What may follow a name or a model id: the end, a space or punctuation — not more of a word,
 * nor `-`, `.`, `:` or `/` going on into one (so "@Ann" is not found in "@Ann-Marie", nor the
 * person "Bench" in "@bench-model").
 */
const NAME_END = /^(?:$|[^\p{L}\p{N}_.:/-]|[.:/-](?![\p{L}\p{N}_]))/u;

/** The text with code (fenced blocks and `inline` spans) blanked: an `@` in code mentions no one. */
export function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

/** Where `@` starts a mention: at the start or after a space or punctuation (not inside `ann@example.com`). */
function mentionStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf('@'); i >= 0; i = text.indexOf('@', i + 1)) {
    const before = i > 0 ? text[i - 1]! : ' ';
    if (!/[\p{L}\p{N}_@.]/u.test(before)) starts.push(i);
  }
  return starts;
}

/** The longest candidate whose name (or id) starts `rest`, case-insensitively, ending where a name may end. */
function longestMatch<T extends Mentionable>(rest: string, candidates: readonly T[], keyOf: (c: T) => string[], end: RegExp): T | undefined {
  const lower = rest.toLowerCase();
  let best: T | undefined;
  let bestLength = 0;
  for (const candidate of candidates) {
    for (const key of keyOf(candidate)) {
      const k = key.toLowerCase();
      if (k.length <= bestLength || !k || !lower.startsWith(k) || !end.test(rest.slice(k.length))) continue;
      best = candidate;
      bestLength = k.length;
    }
  }
  return best;
}

/**
 * Finds the mentions of a message: `@all`/`@here`/`@everyone`, `@Name` of a member (longest name
 * wins, so "@Ann Lee" beats "@Ann"), and `@model` (its id or name) of a model the author may use.
 * Mentions in code are ignored. `models` is asked only when an `@` is left after people.
 */
export async function findMentions(text: string, members: readonly Mentionable[], models: () => Promise<readonly Mentionable[]>): Promise<Mentions> {
  const plain = withoutCode(text);
  const found: Mentions = { userIds: [], everyone: false };
  const rests: string[] = [];
  for (const at of mentionStarts(plain)) {
    const rest = plain.slice(at + 1, at + 1 + 300);
    if (EVERYONE.test(rest)) {
      found.everyone = true;
      continue;
    }
    const member = longestMatch(rest, members, (m) => [m.name], NAME_END);
    if (member) {
      if (!found.userIds.includes(member.id)) found.userIds.push(member.id);
      continue;
    }
    rests.push(rest);
  }
  if (rests.length > 0) {
    const usable = await models();
    for (const rest of rests) {
      const model = longestMatch(rest, usable, (m) => [m.id, m.name], NAME_END);
      if (model) {
        found.modelId = model.id;
        break;
      }
    }
  }
  return found;
}
