import type { ChatsService, TurnMessage } from '../../chats';
import type { AnswerOutcome, PreparedCompletion } from '../pipeline-types';

/** Where a saved turn went. */
export interface SavedTurn {
  chatId: string;
  userMessageId?: string;
  assistantMessageId: string;
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('');
  return '';
}

/**
 * Stage 6: saves the turn to the chat in one transaction: the new user message (the request's
 * last message, unless regenerating) and the answer under it, marked interrupted when it
 * stopped early. Files sent with the request stay attached to the chat.
 */
export async function persistStage(chats: ChatsService, prepared: PreparedCompletion, outcome: AnswerOutcome, startedAt: number): Promise<SavedTurn | undefined> {
  const chat = prepared.chat;
  if (!chat) return undefined;
  const { request } = prepared;
  const sentFiles = (request.files ?? []).map((f) => ({ type: f.type, id: f.id }));
  const last = request.messages[request.messages.length - 1];
  const turn: TurnMessage[] = [];
  if (!request.regenerate && last?.role === 'user') {
    turn.push({ role: 'user', content: text(last.content), files: sentFiles, createdAt: startedAt });
  }
  turn.push({
    role: 'assistant',
    content: outcome.content,
    model: request.model,
    status: outcome.interrupted ? 'interrupted' : 'complete',
    error: outcome.interrupted?.message ?? null,
    usage: outcome.usage ?? null,
    sources: prepared.retrieval.sources,
  });
  const ids = await chats.saveTurn(chat.id, chat.parentId, turn);
  const fileIds = sentFiles.filter((f) => f.type === 'file').map((f) => f.id);
  if (fileIds.length > 0) await chats.attach(chat.id, fileIds);
  return { chatId: chat.id, userMessageId: turn.length === 2 ? ids[0] : undefined, assistantMessageId: ids[ids.length - 1]! };
}
