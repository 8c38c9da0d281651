import type { UsedMemory } from '../../contracts/memories';
import type { ChatMessage as ProviderMessage } from '../../providers';

/** How the caller's memories are given to the model: after its own system prompt, before any sources. */
export const MEMORY_TEMPLATE = `What the user asked you to remember about them (use it where it helps; never recite it unasked):
<memories>
{{MEMORIES}}
</memories>`;

/** Puts the memories into the system message (a new one first when there is none). */
export function injectMemories(messages: ProviderMessage[], memories: readonly UsedMemory[]): ProviderMessage[] {
  if (memories.length === 0) return messages;
  const block = MEMORY_TEMPLATE.replace('{{MEMORIES}}', () => memories.map((m) => `- ${m.content.replace(/\s+/g, ' ')}`).join('\n'));
  const [first, ...rest] = messages;
  if (first?.role === 'system' && typeof first.content === 'string') return [{ role: 'system', content: `${first.content}\n\n${block}` }, ...rest];
  return [{ role: 'system', content: block }, ...messages];
}
