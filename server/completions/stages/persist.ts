import type { ChatsService, TurnMessage } from '../../chats';
import type { CompletionSource } from '../../contracts/completions';
import { newId } from '../../platform/ids';
import type { Logger } from '../../platform/log';
import type { AnswerText } from '../answer-text';
import type { AnswerOutcome, PreparedCompletion } from '../pipeline-types';

/** Where a saved turn went. */
export interface SavedTurn {
  chatId: string;
  userMessageId?: string;
  assistantMessageId: string;
}

/** How often the growing answer is saved while it streams (a crash loses at most this much). */
export const PROGRESS_SAVE_MS = 1000;

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('');
  return '';
}

/** Records one turn into its chat while it is answered; `finish` resolves to where it went. */
export interface TurnRecorder {
  /** Where the turn is being saved, known before it is written (the stream names it first). */
  ids?: SavedTurn;
  /** Saves the answer as it ended, with the sources it was given (default: the retrieval stage's). */
  finish(outcome: AnswerOutcome, sources?: CompletionSource[]): Promise<SavedTurn | undefined>;
}

const NO_CHAT: TurnRecorder = { finish: async () => undefined };

/**
 * Stage 6, durable: the new user message (the request's last message, unless regenerating) and
 * an empty answer marked `streaming` are written as the provider is called (the write is queued
 * first, the provider request is not held back by it); the growing answer is saved every
 * second by a timer, never from the token path; `finish` saves the answer as it ended, marked
 * interrupted when it stopped early. A crash therefore leaves the question and the answer up to
 * the last save, which the next start marks interrupted. Files sent with the request stay
 * attached to the chat. Saving failures are logged, never raised: the answer still reaches the
 * client.
 */
export function recordTurn(chats: ChatsService, prepared: PreparedCompletion, draft: AnswerText, startedAt: number, log: Logger): TurnRecorder {
  const chat = prepared.chat;
  if (!chat) return NO_CHAT;
  const { request } = prepared;
  const sentFiles = (request.files ?? []).map((f) => ({ type: f.type, id: f.id }));
  const last = request.messages[request.messages.length - 1];
  const turn: TurnMessage[] = [];
  if (!request.regenerate && last?.role === 'user') {
    turn.push({ id: newId(), role: 'user', content: text(last.content), files: sentFiles, createdAt: startedAt });
  }
  turn.push({ id: newId(), role: 'assistant', content: '', model: request.model, status: 'streaming', sources: prepared.retrieval.sources });
  const ids: SavedTurn = { chatId: chat.id, userMessageId: turn.length === 2 ? turn[0]!.id : undefined, assistantMessageId: turn[turn.length - 1]!.id! };

  const opened: Promise<string[] | undefined> = chats.saveTurn(chat.id, chat.parentId, turn).catch((error: unknown) => {
    log.error({ err: error, chatId: chat.id }, 'saving the chat turn failed');
    return undefined;
  });
  let savedLength = 0;
  let writing: Promise<void> | undefined;

  const saveProgress = (): void => {
    if (writing) return;
    const content = draft.text();
    if (content.length === savedLength) return;
    writing = opened
      .then(async (ids) => {
        if (ids) await chats.saveAnswerProgress(ids[ids.length - 1]!, content);
        savedLength = content.length;
      })
      .catch((error: unknown) => log.warn({ err: error, chatId: chat.id }, 'saving the partial answer failed'))
      .finally(() => (writing = undefined));
  };
  const timer = setInterval(saveProgress, PROGRESS_SAVE_MS);
  timer.unref();

  return {
    ids,
    async finish(outcome, sources = prepared.retrieval.sources) {
      clearInterval(timer);
      await writing;
      const ids = await opened;
      if (!ids) return undefined;
      const assistantMessageId = ids[ids.length - 1]!;
      try {
        await chats.finishAnswer(chat.id, assistantMessageId, {
          content: outcome.content,
          status: outcome.interrupted ? 'interrupted' : 'complete',
          error: outcome.interrupted?.message ?? null,
          usage: outcome.usage ?? null,
          sources,
          toolSteps: outcome.toolSteps,
        });
        const fileIds = sentFiles.filter((f) => f.type === 'file').map((f) => f.id);
        if (fileIds.length > 0) await chats.attach(chat.id, fileIds);
      } catch (error) {
        log.error({ err: error, chatId: chat.id }, 'saving the chat turn failed');
        return undefined;
      }
      return { chatId: chat.id, userMessageId: turn.length === 2 ? ids[0] : undefined, assistantMessageId };
    },
  };
}
