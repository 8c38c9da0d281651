import type { V1ChatMessage } from '../contracts/openai';
import type { AnswerOutcome } from '../completions';
import type { Usage } from '../providers';

/** Tokens when an engine reports none: estimated as one per four characters. */
export const estimateTokens = (texts: readonly string[]): number => texts.reduce((sum, t) => sum + Math.ceil(t.length / 4), 0);

function textOf(content: V1ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * The usage to record for a /v1 answer: the provider's when it reported one; otherwise (a stream
 * whose client left before the provider's last chunk, a provider that reports none) an estimate
 * of the question and of what was sent, so an aborted stream is not free.
 */
export function usageOf(messages: readonly V1ChatMessage[], outcome: AnswerOutcome): Usage {
  if (outcome.usage) return outcome.usage;
  const prompt = estimateTokens(messages.map((m) => textOf(m.content)));
  const calls = (outcome.toolCalls ?? []).map((call) => call.function.name + call.function.arguments);
  const completion = estimateTokens([outcome.content, ...calls]);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
