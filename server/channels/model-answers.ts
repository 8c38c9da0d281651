import type { CompletionsService, PipelineEvent } from '../completions';
import { CompletionRequest, type CompletionMessage } from '../contracts/completions';
import type { MessageMeta, MessageStreamDelta } from '../contracts/channels';
import { writeJson, readJson } from '../platform/db/json';
import { isHttpError } from '../platform/http/errors';
import { newId } from '../platform/ids';
import type { Logger } from '../platform/log';
import { decodeLiterals } from '../providers';
import type { ChannelCaller, ChannelGrant } from './channel-access';
import type { ChannelEvents } from './channel-events';
import { dataOf } from './channels.present';
import type { MessagePresenter } from './message-context';
import type { AuthorRow, MessageRow, MessagesRepo } from './messages.repo';

/** Messages of the conversation a model is shown (the newest ones), and at most this much of their text. */
export const CONTEXT_MESSAGES = 20;
export const CONTEXT_CHARS = 24_000;
/** How long streamed text is gathered before it goes out as one frame to the whole room. */
export const FRAME_MS = 50;
/** How often the growing answer is saved (a member who opens the channel mid-answer reads it; a crash keeps it). */
export const SAVE_EVERY_MS = 1_000;

export interface ModelAnswersDeps {
  repo: MessagesRepo;
  events: ChannelEvents;
  present: MessagePresenter;
  completions: Pick<CompletionsService, 'prepare' | 'run'>;
  nextMs: () => number;
  log: Logger;
  frameMs?: number;
}

/** One line per message, as the model reads the channel: `Name: text`, its own answers as its turns. */
export function conversationFor(rows: readonly MessageRow[], authors: ReadonlyMap<string, AuthorRow>, modelId: string, files: ReadonlyMap<string, string[]>): CompletionMessage[] {
  const turns: CompletionMessage[] = [];
  let budget = CONTEXT_CHARS;
  for (const row of [...rows].reverse()) {
    const meta = row.meta ? readJson<MessageMeta>(row.meta, {}) : {};
    const mine = meta.model_id === modelId;
    const name = meta.model_id ? (meta.model_name ?? meta.model_id) : (authors.get(row.user_id)?.name ?? 'Someone');
    const attached = files.get(row.id)?.map((f) => `[file: ${f}]`).join(' ');
    const text = [row.content, attached].filter(Boolean).join('\n');
    const content = mine ? text : `${name}: ${text}`;
    if (content.length > budget && turns.length > 0) break;
    budget -= content.length;
    turns.unshift({ role: mine ? 'assistant' : 'user', content: content.slice(0, CONTEXT_CHARS) });
  }
  return turns;
}

function systemPrompt(channel: { name: string; description: string | null }, modelId: string): string {
  const about = channel.description ? ` (${channel.description.slice(0, 500)})` : '';
  return [
    `You are ${modelId}, taking part in the team channel #${channel.name}${about}.`,
    'Each message below starts with the name of the person who wrote it; your own earlier answers are yours.',
    'Answer the last message, which asked you, in the language it is written in. Be concise and use Markdown where it helps.',
  ].join(' ');
}

/**
 * `@model` in a channel: the model answers in the channel (or the thread) with the recent messages
 * as context and the channel's knowledge and tools, through the completion pipeline (the asker's
 * access decides what it may read and use). The answer is a message of the asker's marked with
 * the model; it streams to every member's socket as `message:stream` frames gathered over
 * `FRAME_MS` and sent to the room once each (so 50 watchers cost about what one does), is saved
 * every second while it grows, and ends with `message:update` holding the whole answer.
 */
export function createModelAnswers(deps: ModelAnswersDeps) {
  const { repo, events, present, completions, log } = deps;
  const frameMs = deps.frameMs ?? FRAME_MS;
  const running = new Map<string, { controller: AbortController; deleted: boolean; done: Promise<void> }>();

  async function answer(input: { caller: ChannelCaller; grant: ChannelGrant; question: MessageRow; modelId: string }, id: string, signal: AbortSignal): Promise<void> {
    const { caller, grant, question, modelId } = input;
    const channel = grant.row;
    const context = await repo.recent(channel.id, question.parent_id, CONTEXT_MESSAGES);
    const [authors, files] = await Promise.all([repo.authors(context.map((r) => r.user_id)), repo.files(context.map((r) => r.id))]);
    const fileNames = new Map<string, string[]>();
    for (const f of files) fileNames.set(f.message_id, [...(fileNames.get(f.message_id) ?? []), f.filename]);

    let meta: MessageMeta = { model_id: modelId, model_name: modelId, status: 'streaming' };
    const at = deps.nextMs();
    const row: MessageRow = { id, channel_id: channel.id, user_id: caller.id, parent_id: question.parent_id, content: '', data: null, meta: writeJson(meta), created_at: at, updated_at: at };
    await repo.insert(row);
    events.toChannel(channel, 'message', (await present([row]))[0], { messageId: id, user: caller });
    const parent = row.parent_id ? await repo.find(row.parent_id) : undefined;
    if (parent) events.toChannel(channel, 'message:reply', (await present([parent]))[0], { messageId: parent.id, user: caller });

    let streamed = '';
    const pending: string[] = [];
    let frame: NodeJS.Timeout | undefined;
    const flush = () => {
      frame = undefined;
      if (pending.length === 0) return;
      const delta = decodeLiterals(pending.splice(0));
      const data: MessageStreamDelta = { id, offset: streamed.length, delta };
      streamed += delta;
      events.toChannel(channel, 'message:stream', data, { messageId: id });
    };
    const emit = (event: PipelineEvent) => {
      if (event.type === 'literals') pending.push(...event.literals);
      else if (event.type === 'content') pending.push(JSON.stringify(event.text));
      else return;
      frame ??= setTimeout(flush, frameMs);
    };
    let saving: Promise<void> = Promise.resolve();
    let savedLength = 0;
    const saver = setInterval(() => {
      if (streamed.length === savedLength) return;
      savedLength = streamed.length;
      const content = streamed;
      saving = saving.then(() => repo.update(id, { content, updated_at: deps.nextMs() })).catch((error: unknown) => log.warn({ err: error }, 'saving a streaming channel answer failed'));
    }, SAVE_EVERY_MS);

    let content = '';
    try {
      const data = dataOf(channel);
      const request = CompletionRequest.parse({
        model: modelId,
        stream: true,
        messages: [{ role: 'system', content: systemPrompt(channel, modelId) }, ...conversationFor(context, new Map(authors.map((a) => [a.id, a])), modelId, fileNames)],
        ...(data?.knowledge_ids?.length ? { files: data.knowledge_ids.map((kb) => ({ type: 'collection', id: kb })) } : {}),
        ...(data?.tool_ids?.length ? { tool_ids: data.tool_ids } : {}),
      });
      const prepared = await completions.prepare(caller, request, signal);
      meta = { ...meta, model_name: prepared.resolved.model.name || modelId };
      const result = await completions.run(prepared, signal, emit);
      content = result.outcome.content;
      const sources = prepared.retrieval.sources.map((s) => ({ id: s.source.id, name: s.source.name }));
      const interrupted = result.outcome.interrupted;
      meta = { ...meta, status: interrupted ? 'interrupted' : 'done', ...(interrupted ? { error: interrupted.message } : {}), ...(sources.length > 0 ? { sources } : {}) };
    } catch (error) {
      content = streamed;
      const message = isHttpError(error) ? error.message : 'The model could not answer';
      if (!isHttpError(error)) log.warn({ err: error, model: modelId }, 'a channel answer failed');
      meta = { ...meta, status: 'interrupted', error: message };
    } finally {
      clearInterval(saver);
      if (frame) clearTimeout(frame);
      flush();
      await saving;
    }
    if (running.get(id)?.deleted) return;
    const final: MessageRow = { ...row, content, meta: writeJson(meta), updated_at: deps.nextMs() };
    await repo.update(id, { content: final.content, meta: final.meta, updated_at: final.updated_at });
    if (running.get(id)?.deleted) return;
    events.toChannel(channel, 'message:update', (await present([final]))[0], { messageId: id, user: caller });
  }

  return {
    /** Starts the model's answer to `question` in the background (it never throws to the poster). */
    start(input: { caller: ChannelCaller; grant: ChannelGrant; question: MessageRow; modelId: string }): void {
      const id = newId();
      const controller = new AbortController();
      const entry = { controller, deleted: false, done: Promise.resolve() };
      running.set(id, entry);
      entry.done = answer(input, id, controller.signal)
        .catch((error: unknown) => log.warn({ err: error }, 'a channel answer could not be saved'))
        .finally(() => running.delete(id));
    },

    /** Stops an answer streaming into a message that is being deleted (nothing more is saved or sent for it). */
    stop(messageId: string): void {
      const entry = running.get(messageId);
      if (!entry) return;
      entry.deleted = true;
      entry.controller.abort();
    },

    /** Answers still streaming. */
    active(): number {
      return running.size;
    },

    /** Stops every answer (saved as interrupted) and waits for them, before the database closes. */
    async close(): Promise<void> {
      for (const entry of running.values()) entry.controller.abort();
      await Promise.all([...running.values()].map((e) => e.done));
    },
  };
}
export type ModelAnswers = ReturnType<typeof createModelAnswers>;
