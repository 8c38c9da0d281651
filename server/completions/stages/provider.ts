import { isAbortError, type ChatMessage as ProviderMessage, type ToolCall, type Usage } from '../../providers';
import type { AnswerOutcome, PipelineEvent, PreparedCompletion } from '../pipeline-types';

/** Most rounds of tool calls before the answer is cut off. */
export const MAX_TOOL_ROUNDS = 5;

/** Receives events in order; awaiting it applies the client's backpressure to the provider. */
export type Emit = (event: PipelineEvent) => void | Promise<void>;

function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return b;
  return { prompt_tokens: a.prompt_tokens + b.prompt_tokens, completion_tokens: a.completion_tokens + b.completion_tokens, total_tokens: a.total_tokens + b.total_tokens };
}

function failureMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'The model provider failed';
}

/**
 * Stage 5: streams the answer from the provider, running tool calls between rounds when tools
 * are in play. Never throws for provider trouble: the outcome says the answer was interrupted
 * (client gone, or provider failure) and keeps what arrived.
 */
export async function answerStage(prepared: PreparedCompletion, signal: AbortSignal, emit: Emit): Promise<AnswerOutcome> {
  const { resolved, params, tools } = prepared;
  let messages: ProviderMessage[] = prepared.messages;
  let content = '';
  let usage: Usage | undefined;
  let finishReason: string | null = null;

  for (let round = 0; ; round += 1) {
    const toolCalls: ToolCall[] = [];
    let roundContent = '';
    try {
      const stream = resolved.provider.chatStream(
        { model: resolved.providerModelId, messages, ...params, ...(tools.specs.length > 0 ? { tools: tools.specs } : {}) },
        signal,
      );
      for await (const chunk of stream) {
        if (chunk.content) {
          content += chunk.content;
          roundContent += chunk.content;
          await emit({ type: 'content', text: chunk.content });
        }
        if (chunk.tool_calls) toolCalls.push(...chunk.tool_calls);
        if (chunk.usage) usage = addUsage(usage, chunk.usage);
        if (chunk.finish_reason) finishReason = chunk.finish_reason;
      }
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return { content, finishReason, usage, interrupted: { reason: 'client', message: 'Stopped before the answer was complete' } };
      return { content, finishReason: 'error', usage, interrupted: { reason: 'provider', message: failureMessage(error) } };
    }
    // An aborted openai stream ends quietly instead of throwing.
    if (signal.aborted) return { content, finishReason, usage, interrupted: { reason: 'client', message: 'Stopped before the answer was complete' } };
    if (toolCalls.length === 0 || tools.specs.length === 0) break;
    if (round + 1 >= MAX_TOOL_ROUNDS) {
      finishReason = 'length';
      break;
    }

    const names = [...new Set(toolCalls.map((c) => c.function.name))].join(', ');
    await emit({ type: 'status', status: { action: 'tool_calls', description: `Running ${names}`, done: false } });
    messages = [...messages, { role: 'assistant', content: roundContent || null, tool_calls: toolCalls }];
    for (const call of toolCalls) {
      let result: string;
      try {
        result = await tools.execute(call, signal);
      } catch (error) {
        if (signal.aborted) return { content, finishReason, usage, interrupted: { reason: 'client', message: 'Stopped before the answer was complete' } };
        result = `Error: ${failureMessage(error)}`;
      }
      messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content: result });
    }
    await emit({ type: 'status', status: { action: 'tool_calls', description: `Ran ${names}`, done: true } });
  }
  return { content, finishReason: finishReason ?? 'stop', usage };
}
