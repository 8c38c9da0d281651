import type { ResolvedModel } from '../../models';
import type { ChatMessage as ProviderMessage } from '../../providers';
import type { PreparedCompletion, PreparedInterpreter } from '../pipeline-types';

/**
 * Puts the code interpreter into an answer: its prompt joins the system message, and it runs
 * through the `execute_python` tool, or through the blocks the model writes when the model is
 * set to call tools through the prompt (`params.function_calling: 'prompt'`).
 */
export function withInterpreter(prepared: PreparedInterpreter, resolved: ResolvedModel, messages: ProviderMessage[]): { interpreter: NonNullable<PreparedCompletion['interpreter']>; messages: ProviderMessage[] } {
  const mode = resolved.params.extra?.function_calling === 'prompt' ? 'blocks' : 'tool';
  const [first, ...rest] = messages;
  const withPrompt: ProviderMessage[] =
    first?.role === 'system' && typeof first.content === 'string' ? [{ role: 'system', content: `${first.content}\n\n${prepared.prompt}` }, ...rest] : [{ role: 'system', content: prepared.prompt }, ...messages];
  return { interpreter: { ...prepared, mode }, messages: withPrompt };
}
