import type { Response } from 'express';
import type { CompletionRequest } from '../contracts/completions';
import type { V1ChatCompletion, V1ChatCompletionRequest } from '../contracts/openai';
import { ChunkWriter, type ClientTools, type CompletionResult, type CompletionsService, type PreparedCompletion } from '../completions';
import { HttpError } from '../platform/http/errors';
import type { RouteAuth } from '../platform/http/route';
import { usageOf } from './token-estimate';
import type { UsageRecorder } from './usage';

/** What the /v1 chat endpoint needs. */
export interface ChatCompletionsDeps {
  completions: Pick<CompletionsService, 'prepare' | 'run'>;
  usage: UsageRecorder;
}

/** The /v1 request as the completion pipeline takes it: nothing is saved to a chat. */
export function pipelineRequest(body: V1ChatCompletionRequest): CompletionRequest {
  return {
    model: body.model,
    messages: body.messages.map((m) => ({ ...m, role: m.role === 'developer' ? 'system' : m.role })),
    stream: body.stream ?? false,
    temperature: body.temperature,
    max_tokens: body.max_tokens ?? body.max_completion_tokens,
    top_p: body.top_p,
    seed: body.seed,
    stop: body.stop,
    ...(body.features ? { features: body.features } : {}),
  };
}

function clientTools(body: V1ChatCompletionRequest): ClientTools | undefined {
  if (!body.tools || body.tools.length === 0 || body.tool_choice === 'none') return undefined;
  return {
    specs: body.tools.map((tool) => ({ type: 'function', function: { name: tool.function.name, description: tool.function.description, parameters: tool.function.parameters } })),
    ...(body.tool_choice !== undefined ? { choice: body.tool_choice } : {}),
  };
}

function providerFailed(message: string): HttpError {
  return new HttpError(502, 'PROVIDER_FAILED', `The model provider failed: ${message}`);
}

async function streamAnswer(deps: ChatCompletionsDeps, prepared: PreparedCompletion, body: V1ChatCompletionRequest, res: Response, signal: AbortSignal): Promise<CompletionResult> {
  const stream = new ChunkWriter(res, { id: prepared.id, created: prepared.created, model: body.model }, 'openai');
  const result = await deps.completions.run(prepared, signal, (event) => stream.event(event));
  if (stream.isClosed) return result;
  const { outcome } = result;
  if (outcome.interrupted?.reason === 'provider') {
    if (!stream.hasStarted) throw providerFailed(outcome.interrupted.message);
    await stream.error(outcome.interrupted.message);
  } else {
    await stream.finish(outcome.finishReason, body.stream_options?.include_usage ? usageOf(body.messages, outcome) : undefined);
  }
  stream.end();
  return result;
}

async function jsonAnswer(deps: ChatCompletionsDeps, prepared: PreparedCompletion, body: V1ChatCompletionRequest, res: Response, signal: AbortSignal): Promise<CompletionResult> {
  const result = await deps.completions.run(prepared, signal, () => undefined);
  const { outcome } = result;
  if (outcome.interrupted?.reason === 'provider') throw providerFailed(outcome.interrupted.message);
  if (outcome.interrupted) return result; // the client is gone
  const calls = outcome.toolCalls ?? [];
  const answer: V1ChatCompletion = {
    id: prepared.id,
    object: 'chat.completion',
    created: prepared.created,
    model: body.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: calls.length > 0 && outcome.content === '' ? null : outcome.content, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: outcome.finishReason,
      },
    ],
    usage: usageOf(body.messages, outcome),
    ...(result.sources.length > 0 ? { sources: result.sources } : {}),
  };
  res.json(answer);
  return result;
}

/**
 * POST /v1/chat/completions: the chat completion pipeline (model access, a custom model's
 * system prompt, knowledge and tools) answered in OpenAI's format. The caller's own `tools`
 * are passed through; nothing is saved to a chat. Usage is recorded whether or not the answer
 * completed.
 */
export async function chatCompletions(deps: ChatCompletionsDeps, { auth, body, res }: { auth: RouteAuth; body: V1ChatCompletionRequest; res: Response }): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const prepared = await deps.completions.prepare(auth.user, pipelineRequest(body), controller.signal, auth.credential, clientTools(body));
  let result: CompletionResult | undefined;
  try {
    result = body.stream ? await streamAnswer(deps, prepared, body, res, controller.signal) : await jsonAnswer(deps, prepared, body, res, controller.signal);
  } finally {
    // A stream the client left has no provider usage: what was sent is estimated, not recorded as zero.
    await deps.usage.record(auth.user.id, body.model, result ? usageOf(body.messages, result.outcome) : undefined);
  }
}
