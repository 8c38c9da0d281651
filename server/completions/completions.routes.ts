import type { Response } from 'express';
import { ChatCompletion, CompletionRequest, StopAnswerRequest, StopAnswerResponse } from '../contracts/completions';
import { HttpError } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
import type { CompletionResult, CompletionsService } from './completions.service';
import type { PreparedCompletion } from './pipeline-types';
import type { RunningAnswer } from './running-answers';
import type { RateLimit } from '../platform/http/account-rate-limit';
import { ChunkWriter } from './chunk-writer';

function providerFailed(message: string): HttpError {
  return new HttpError(502, 'PROVIDER_FAILED', `The model provider failed: ${message}`);
}

function savedFields(result: CompletionResult): Record<string, string | undefined> {
  if (!result.saved) return {};
  const { chatId, assistantMessageId, userMessageId } = result.saved;
  return { chat_id: chatId, message_id: assistantMessageId, ...(userMessageId ? { user_message_id: userMessageId } : {}) };
}

async function streamAnswer(service: CompletionsService, prepared: PreparedCompletion, res: Response, signal: AbortSignal, firstToken: () => void, running?: RunningAnswer): Promise<CompletionResult> {
  const sse = new ChunkWriter(res, { id: prepared.id, created: prepared.created, model: prepared.request.model }, 'parley');
  const result = await service.run(
    prepared,
    signal,
    (event) => {
      if (event.type === 'content' || event.type === 'literals') firstToken();
      return sse.event(event);
    },
    running,
  );
  if (sse.isClosed) return result;
  const { outcome } = result;
  if (outcome.interrupted?.reason === 'provider') {
    // Nothing sent yet: a plain HTTP error is clearer than an event stream holding only an error.
    if (!sse.hasStarted) throw providerFailed(outcome.interrupted.message);
    await sse.error(outcome.interrupted.message, savedFields(result));
  } else {
    await sse.finish(outcome.finishReason, outcome.usage, savedFields(result));
  }
  sse.end();
  return result;
}

async function jsonAnswer(service: CompletionsService, prepared: PreparedCompletion, res: Response, signal: AbortSignal, running?: RunningAnswer): Promise<CompletionResult> {
  const result = await service.run(prepared, signal, () => undefined, running);
  const { outcome } = result;
  if (outcome.interrupted?.reason === 'provider') throw providerFailed(outcome.interrupted.message);
  if (outcome.interrupted && res.destroyed) return result; // the client is gone (a Stop answers what was kept)
  const body: ChatCompletion = {
    id: prepared.id,
    object: 'chat.completion',
    created: prepared.created,
    model: prepared.request.model,
    choices: [{ index: 0, message: { role: 'assistant', content: outcome.content }, finish_reason: outcome.finishReason }],
    ...(outcome.usage ? { usage: outcome.usage } : {}),
    ...(result.sources.length > 0 ? { sources: result.sources } : {}),
    ...(prepared.memories?.length ? { memories: prepared.memories } : {}),
    ...savedFields(result),
  };
  res.json(body);
  return result;
}

/** POST /api/chat/completions (section 4.5, section 6 point 1). Mounted at `/api/chat`. */
export function completionsRoutes(service: CompletionsService, rateLimit: RateLimit): Routes {
  return [
    route(
      {
        method: 'post',
        path: '/completions',
        guard: 'user',
        // The same per-account budget as /v1: an API key gains nothing by calling this path instead.
        authorize: rateLimit,
        body: CompletionRequest,
        invalid: 400,
        produces: 'json-or-event-stream',
        summary: 'Chat completion for the Parley UI (saves to a chat; `stream`: Server-Sent Events)',
        response: ChatCompletion,
      },
      async ({ res, auth, body }) => {
        // The client leaving aborts the upstream request at once; so does the person's Stop.
        const controller = new AbortController();
        res.on('close', () => {
          if (!res.writableFinished) controller.abort();
        });
        const running = body.stream_id && body.chat_id ? service.beginAnswer(auth.user, body.stream_id, body.chat_id) : undefined;
        const signal = running ? AbortSignal.any([controller.signal, running.signal]) : controller.signal;
        const firstToken = service.awaitingFirstToken();
        try {
          const prepared = await service.prepare(auth.user, body, signal, auth.credential);
          const result = body.stream ? await streamAnswer(service, prepared, res, signal, firstToken, running) : await jsonAnswer(service, prepared, res, signal, running);
          firstToken();
          service.afterAnswer(prepared, result);
        } finally {
          firstToken();
          running?.end(Date.now());
        }
        return undefined;
      },
    ),
    route(
      {
        method: 'post',
        path: '/stop',
        guard: 'user',
        body: StopAnswerRequest,
        summary: 'Stop an answer streaming in the Parley UI and keep the text its screen showed',
        response: StopAnswerResponse,
      },
      ({ user, body }) => service.stop(user, body),
    ),
  ];
}
