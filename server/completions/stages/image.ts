import type { MessageToolStep } from '../../contracts/chats';
import type { ChatMessage as ProviderMessage } from '../../providers';
import type { AnswerOutcome, PreparedCompletion } from '../pipeline-types';
import type { Emit } from './provider';

/** The system message with `note` added at its end (or a new one first). */
function withNote(messages: ProviderMessage[], note: string): ProviderMessage[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system' && typeof first.content === 'string') return [{ role: 'system', content: `${first.content}\n\n${note}` }, ...rest];
  return [{ role: 'system', content: note }, ...messages];
}

/**
 * Makes the image before the model answers (`features.image_generation`): progress and the step
 * go to the client, and the model is told what was made so it answers about it. `stopped` is set
 * when the client left while the image was being made.
 */
export async function makeImageFirst(prepared: PreparedCompletion, signal: AbortSignal, emit: Emit): Promise<{ prepared: PreparedCompletion; step?: MessageToolStep; stopped?: AnswerOutcome }> {
  const generation = prepared.imageGeneration;
  if (!generation) return { prepared };
  const made = await generation.run({
    messages: prepared.request.messages,
    fileIds: (prepared.request.files ?? []).filter((f) => f.type === 'file').map((f) => f.id),
    modelId: prepared.request.model,
    signal,
    status: (status) => emit({ type: 'status', status }),
  });
  if (signal.aborted) return { prepared, step: made.step, stopped: { content: '', finishReason: null, interrupted: { reason: 'client', message: 'Stopped before the answer was complete' } } };
  await emit({ type: 'tool_step', step: made.step });
  return { prepared: { ...prepared, messages: withNote(prepared.messages, made.note) }, step: made.step };
}
