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

/** Puts the numbered sources into the system message (added after the model's own system prompt). */
export function injectContext(messages: ProviderMessage[], result: RetrievalResult): ProviderMessage[] {
  const context = numberedContext(result);
  if (!context) return messages;
  const block = CONTEXT_TEMPLATE.replace('{{CONTEXT}}', () => context);
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
