import type { CompletionStatus } from '../../contracts/completions';
import type { ChatMessage as ProviderMessage } from '../../providers';
import type { RetrievalResult, Retriever } from '../pipeline-types';

/** No retrieval engine registered yet: nothing is looked up, nothing is cited. */
export const noRetrieval: Retriever = async () => ({ sources: [] });

/**
 * How retrieved context is given to the model: numbered sources it is asked to cite as [n].
 * `{{CONTEXT}}` is replaced by the numbered passages.
 */
export const CONTEXT_TEMPLATE = `Use the numbered sources below to answer the user's latest message.
Cite the sources you use as [1], [2]… right after the statement they support. If the sources do
not hold the answer, say so and answer from your own knowledge, without citations.

<sources>
{{CONTEXT}}
</sources>`;

/** "“A”", "“A” and “B”", "“A”, “B” and “C”". */
function quotedList(names: readonly string[]): string {
  const quoted = names.map((name) => `“${name}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** What the model is told when knowledge it was given was searched and nothing matched (never skipped in silence). */
export function unmatchedNote(result: RetrievalResult): string {
  const unmatched = result.unmatched ?? [];
  if (unmatched.length === 0) return '';
  const names = quotedList(unmatched.map((u) => u.name));
  const what = unmatched.length === 1 ? `The knowledge ${unmatched[0]!.type === 'file' ? 'file' : 'base'} ${names} was` : `The knowledge ${names} were`;
  return `${what} searched for the user's latest message and no passage in it matched. Say so briefly, then answer from what you know, without citing ${unmatched.length === 1 ? 'it' : 'them'}.`;
}

/** The status line a person sees when knowledge was searched and nothing in it matched (the UI words it from `names`). */
export function unmatchedStatus(result: RetrievalResult): CompletionStatus | undefined {
  const unmatched = result.unmatched ?? [];
  if (unmatched.length === 0) return undefined;
  const names = unmatched.map((u) => u.name);
  return { action: 'knowledge_unmatched', description: `No passage in ${quotedList(names)} matched the question`, done: true, names };
}

/** Puts the numbered sources, and the note about knowledge that had none, into the system message (after the model's own system prompt). */
export function injectContext(messages: ProviderMessage[], result: RetrievalResult): ProviderMessage[] {
  const context = numberedContext(result);
  const note = unmatchedNote(result);
  if (!context && !note) return messages;
  const block = [context ? CONTEXT_TEMPLATE.replace('{{CONTEXT}}', () => context) : '', note].filter((part) => part !== '').join('\n\n');
  const [first, ...rest] = messages;
  if (first?.role === 'system' && typeof first.content === 'string') return [{ role: 'system', content: `${first.content}\n\n${block}` }, ...rest];
  return [{ role: 'system', content: block }, ...messages];
}

/** Numbers passages for the context block: `<source id="n" name="…">text</source>`, one per passage. */
export function numberedContext(result: Pick<RetrievalResult, 'sources'>): string {
  let n = 0;
  const parts: string[] = [];
  for (const source of result.sources) {
    for (const passage of source.document) {
      n += 1;
      const name = source.source.name.replace(/"/g, "'");
      parts.push(`<source id="${n}" name="${name}">${passage}</source>`);
    }
  }
  return parts.join('\n');
}
