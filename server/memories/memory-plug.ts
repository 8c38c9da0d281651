import type { MemoryPlug } from '../completions';
import { toolCallArgument } from '../providers';
import type { MemoriesService } from './memories.service';

/** What a conversation is recalled from: the last user message. */
function lastUserText(messages: Parameters<MemoryPlug['recall']>[0]['messages']): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}

/** The tools a model calling tools natively gets while memory is on. */
export const MEMORY_TOOL_SPECS = [
  {
    type: 'function' as const,
    function: {
      name: 'remember',
      description: 'Keep a short fact about the user for later conversations (only when the user asks you to remember something, or states a lasting fact about themselves).',
      parameters: { type: 'object', properties: { content: { type: 'string', description: 'The fact, in the first person, as one short sentence ("I work in Lyon")' } }, required: ['content'] },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'recall',
      description: 'Look up what the user asked you to remember about them.',
      parameters: { type: 'object', properties: { query: { type: 'string', description: 'What to look for' } }, required: ['query'] },
    },
  },
];

/** Memory in the completion pipeline: recall into the system context, and the `remember` / `recall` tools. */
export function createMemoryPlug(memories: MemoriesService): MemoryPlug {
  return {
    async recall({ user, messages, signal }) {
      await memories.mayUse(user);
      const text = lastUserText(messages).trim();
      if (!text) return [];
      return (await memories.recall(user, text, 5, signal)).map((m) => ({ id: m.id, content: m.content }));
    },
    tools(user) {
      return {
        specs: MEMORY_TOOL_SPECS,
        async execute(call) {
          if (call.function.name === 'remember') {
            const content = toolCallArgument(call, 'content');
            if (content.length > 2000) throw new Error('A memory is at most 2,000 characters');
            await memories.add(user, content);
            return `Remembered: ${content}`;
          }
          if (call.function.name === 'recall') {
            const found = await memories.recall(user, toolCallArgument(call, 'query'), 5);
            return found.length > 0 ? found.map((m) => `- ${m.content}`).join('\n') : 'Nothing remembered about that.';
          }
          throw new Error(`No tool named ${call.function.name} is available`);
        },
      };
    },
  };
}
