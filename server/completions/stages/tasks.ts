import type { ChatsService } from '../../chats';
import type { Logger } from '../../platform/log';
import type { RealtimeHub } from '../../realtime';
import { fallbackTitle, type TasksService, type TemplateMessage } from '../../tasks';
import type { AnswerOutcome, PreparedCompletion } from '../pipeline-types';
import type { SavedTurn } from './persist';

/** What the after-answer tasks need. */
export interface AfterAnswerDeps {
  chats: ChatsService;
  tasks: TasksService;
  realtime: Pick<RealtimeHub, 'emitToUser'>;
  log: Logger;
}

/**
 * Stage 7, run after the client got its answer: the chat's title while it still has the default
 * one (the owner's own name always wins; when the task model fails, the start of the first question), tags after its first answer, follow-up suggestions after every answer. Each task is on its own: a failure is
 * logged and never reaches the chat. Results are saved and pushed to the user's sockets.
 */
export async function afterAnswerStage(deps: AfterAnswerDeps, prepared: PreparedCompletion, outcome: AnswerOutcome, saved: SavedTurn, signal: AbortSignal): Promise<void> {
  if (outcome.interrupted) return;
  const { chats, tasks, realtime, log } = deps;
  const user = prepared.user;
  const options = { chat: { id: prepared.request.model, kind: prepared.resolved.providerRef.kind }, signal };
  const conversation: TemplateMessage[] = [
    ...prepared.request.messages.filter((m) => m.role === 'user' || m.role === 'assistant'),
    { role: 'assistant', content: outcome.content },
  ];
  const base = { chat_id: saved.chatId, message_id: saved.assistantMessageId, session_id: prepared.request.session_id };
  const guard = async (name: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (!signal.aborted) log.warn({ err: error, task: name, chatId: saved.chatId }, 'background task failed');
    }
  };

  // Both reads at once, and the answer count only when tags are wanted: every saved answer runs
  // this stage, and its reads share the one SQLite connection with the answers still streaming.
  const wantsTags = (await tasks.getConfig()).ENABLE_TAGS_GENERATION;
  const [first, untitled] = await Promise.all([
    wantsTags ? chats.hasSingleAnswer(saved.chatId).catch(() => false) : false,
    // A chat nobody named gets its title from its first complete answer (even when earlier answers were stopped).
    chats.hasDefaultTitle(saved.chatId).catch(() => false),
  ]);
  await Promise.all([
    untitled &&
      guard('title', async () => {
        // A failing task model (error, time-out) still names the chat: after the first words of its question.
        const title = await tasks.title(user, conversation, options).catch((error: unknown) => {
          if (signal.aborted) throw error;
          log.warn({ err: error, task: 'title', chatId: saved.chatId }, 'title task failed, the chat is named after its first message');
          return fallbackTitle(conversation);
        });
        if (await chats.setGeneratedTitle(saved.chatId, title)) realtime.emitToUser(user.id, 'chat:title', { ...base, title });
      }),
    first &&
      guard('tags', async () => {
        const tags = await tasks.tags(user, conversation, options);
        if (tags.length === 0) return;
        const spelled = await chats.setTags(saved.chatId, tags);
        realtime.emitToUser(user.id, 'chat:tags', { ...base, tags: spelled });
      }),
    guard('follow_ups', async () => {
      const followUps = await tasks.followUps(user, conversation, options);
      if (followUps.length === 0) return;
      await chats.setFollowUps(saved.assistantMessageId, followUps);
      realtime.emitToUser(user.id, 'chat:follow_ups', { ...base, follow_ups: followUps });
    }),
  ]);
}
