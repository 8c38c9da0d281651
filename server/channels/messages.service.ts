import type { IncomingMessage } from 'node:http';
import type { AttachmentFile } from '../contracts/files';
import { MAX_MARKDOWN_DEPTH, type ChannelMessage, type ChannelSearchHit, type MentionNotice, type MessageForm, type MessageMeta } from '../contracts/channels';
import { presentAttachment, receiveUploads, type FileRow, type FilesService } from '../files';
import type { Clock } from '../platform/clock';
import { writeJson } from '../platform/db/json';
import { badRequest, forbidden, notFound, unprocessable } from '../platform/http/errors';
import { newId } from '../platform/ids';
import type { PermissionsService } from '../permissions';
import type { ChannelAccess, ChannelCaller, ChannelGrant } from './channel-access';
import type { ChannelEvents } from './channel-events';
import { markdownDepth } from './markdown-depth';
import { findMentions, type Mentionable, type Mentions } from './mentions';
import { presentNew, type MessagePresenter } from './message-context';
import type { MessageRow, MessagesRepo } from './messages.repo';
import type { ChannelRateLimits } from './rate-limits';
import { MAX_REACTION_NAMES } from '../contracts/channels';
import { DEFAULT_PROFILE_IMAGE_URL } from '../contracts/users';

/** What a mention notice shows of the message. */
const PREVIEW_CHARS = 200;

/** Starts a model's answer to a message that mentioned it (see model-answers.ts). */
export type AnswerStarter = (input: { caller: ChannelCaller; grant: ChannelGrant; question: MessageRow; modelId: string }) => void;

export interface MessagesServiceDeps {
  repo: MessagesRepo;
  access: ChannelAccess;
  events: ChannelEvents;
  present: MessagePresenter;
  limits: ChannelRateLimits;
  files: FilesService;
  permissions: PermissionsService;
  /** The models the caller may use (their `@model` mentions). */
  usableModels(caller: ChannelCaller): Promise<Mentionable[]>;
  /** Stops a model answer still streaming into a message that is being deleted. */
  stopAnswer(messageId: string): void;
  /** Strictly increasing message times (shared with model answers). */
  nextMs: () => number;
  clock: Clock;
}

const messageNotFound = () => notFound('Message not found', 'MESSAGE_NOT_FOUND');

/** Text checks beyond the schema: something to say, and no nesting deep enough to choke a renderer. */
function checkContent(content: string, hasFiles: boolean): void {
  if (content.trim() === '' && !hasFiles) throw unprocessable('A message needs text or a file', 'MESSAGE_EMPTY');
  const depth = markdownDepth(content);
  if (depth > MAX_MARKDOWN_DEPTH) throw unprocessable(`The message nests ${depth} levels deep (quotes, lists, brackets or tags); at most ${MAX_MARKDOWN_DEPTH} are allowed`, 'MESSAGE_TOO_DEEP');
}

/**
 * Messages in channels: pages (newest first), threads, posting (mentions notify, `@model`
 * answers), editing one's own, deleting (authors, managers, admins: replies, reactions and files
 * go too), reactions, files, and search across the caller's channels. Every change reaches the
 * channel's members live (`channel-events`).
 */
export function createMessagesService(deps: MessagesServiceDeps) {
  const { repo, access, events, present, limits, files, clock } = deps;
  const { nextMs } = deps;
  let answer: AnswerStarter = () => undefined;

  async function messageIn(channelId: string, messageId: string): Promise<MessageRow> {
    const row = await repo.find(messageId);
    if (!row || row.channel_id !== channelId) throw messageNotFound();
    return row;
  }

  const presentOne = async (row: MessageRow): Promise<ChannelMessage> => (await present([row]))[0]!;

  /** The caller's uploads for this message: theirs, made for a channel, on no other message. */
  async function ownUploads(caller: ChannelCaller, refs: ReadonlyArray<{ id: string }>): Promise<FileRow[]> {
    const ids = [...new Set(refs.map((r) => r.id))];
    const rows = await Promise.all(ids.map((id) => files.requireOwned(caller, id)));
    if (rows.some((r) => r.purpose !== 'channel')) throw badRequest('Files on channel messages are uploaded to the channel first', 'FILE_NOT_FOR_CHANNEL');
    if ((await repo.linkedFiles(ids)).size > 0) throw badRequest('A file is already on another message', 'FILE_ALREADY_POSTED');
    return rows;
  }

  /** Tells the people a message mentions (members only; every member for @all from a manager). */
  async function notify(grant: ChannelGrant, caller: ChannelCaller, row: MessageRow, mentions: Mentions, members: ReadonlyArray<{ id: string }>): Promise<void> {
    const everyone = mentions.everyone && grant.write;
    const memberIds = new Set(members.map((m) => m.id));
    const targets = everyone ? [...memberIds] : mentions.userIds.filter((id) => memberIds.has(id));
    const notice: MentionNotice = {
      channel_id: row.channel_id,
      channel_name: grant.row.name,
      message_id: row.id,
      parent_id: row.parent_id,
      author: { id: caller.id, name: caller.name },
      preview: row.content.slice(0, PREVIEW_CHARS),
      everyone,
    };
    for (const userId of new Set(targets)) if (userId !== caller.id) events.toUser(userId, row.channel_id, 'mention', notice, { messageId: row.id, user: caller });
  }

  return {
    /** Registers what answers `@model` mentions (the module wires model-answers.ts). */
    onModelMention(starter: AnswerStarter): void {
      answer = starter;
    },

    /** A page of the channel's top-level messages, newest first. */
    async page(caller: ChannelCaller, channelId: string, skip: number, limit: number): Promise<ChannelMessage[]> {
      await access.readable(caller, channelId);
      return present(await repo.page(channelId, skip, limit));
    },

    async get(caller: ChannelCaller, channelId: string, messageId: string): Promise<ChannelMessage> {
      await access.readable(caller, channelId);
      return presentOne(await messageIn(channelId, messageId));
    },

    /** A thread's replies, newest first; its first message closes the last page (as Open WebUI answers). */
    async thread(caller: ChannelCaller, channelId: string, messageId: string, skip: number, limit: number): Promise<ChannelMessage[]> {
      await access.readable(caller, channelId);
      const parent = await messageIn(channelId, messageId);
      const replies = await repo.thread(parent.id, skip, limit);
      return present(replies.length < limit ? [...replies, parent] : replies);
    },

    /** Posts a message (or a reply); mentions notify, an `@model` makes that model answer. */
    async post(caller: ChannelCaller, channelId: string, form: MessageForm): Promise<ChannelMessage> {
      const grant = await access.readable(caller, channelId);
      await limits.consume(caller.id, 'message');
      const refs = form.data?.files ?? [];
      checkContent(form.content, refs.length > 0);
      let parentId: string | null = null;
      if (form.parent_id) {
        const parent = await messageIn(channelId, form.parent_id);
        // Threads are one level deep: a reply to a reply joins the same thread.
        parentId = parent.parent_id ?? parent.id;
      }
      const uploads = await ownUploads(caller, refs);
      const members = form.content.includes('@') ? await access.members(grant.row) : [];
      const mentions = await findMentions(form.content, members, () => deps.usableModels(caller));
      if (mentions.modelId) await limits.consume(caller.id, 'model');
      const meta: MessageMeta | null = mentions.userIds.length > 0 || mentions.everyone ? { mentions: { user_ids: mentions.userIds, everyone: mentions.everyone && grant.write } } : null;
      const at = nextMs();
      const row: MessageRow = { id: newId(), channel_id: channelId, user_id: caller.id, parent_id: parentId, content: form.content, data: null, meta: meta ? writeJson(meta) : null, created_at: at, updated_at: at };
      await repo.insert(
        row,
        uploads.map((u) => u.id),
      );
      const author = { id: caller.id, name: caller.name, profile_image_url: caller.profile_image_url ?? DEFAULT_PROFILE_IMAGE_URL };
      const files = uploads.map((u) => ({ message_id: row.id, file_id: u.id, filename: u.filename, size: u.size, mime_type: u.mime_type }));
      const presented = presentNew(row, author, files, clock.nowMs());
      events.toChannel(grant.row, 'message', presented, { messageId: row.id, user: caller, tempId: form.temp_id });
      if (parentId) {
        const parent = await repo.find(parentId);
        if (parent) events.toChannel(grant.row, 'message:reply', await presentOne(parent), { messageId: parentId, user: caller });
      }
      await notify(grant, caller, row, mentions, members);
      if (mentions.modelId) answer({ caller, grant, question: row, modelId: mentions.modelId });
      return presented;
    },

    /** Changes the text of one's own message (files stay; mentions do not ping again). */
    async update(caller: ChannelCaller, channelId: string, messageId: string, form: MessageForm): Promise<ChannelMessage> {
      const grant = await access.readable(caller, channelId);
      const row = await messageIn(channelId, messageId);
      if (row.user_id !== caller.id) throw forbidden('Only its author may change a message', 'MESSAGE_FORBIDDEN');
      await limits.consume(caller.id, 'message');
      const hasFiles = (await repo.files([row.id])).length > 0;
      checkContent(form.content, hasFiles);
      const updated: MessageRow = { ...row, content: form.content, updated_at: Math.max(clock.nowMs(), row.updated_at + 1) };
      await repo.update(row.id, { content: updated.content, updated_at: updated.updated_at });
      const presented = await presentOne(updated);
      events.toChannel(grant.row, 'message:update', presented, { messageId: row.id, user: caller });
      return presented;
    },

    /** Deletes a message (its author, the channel's managers, admins) with its thread, reactions and files. */
    async delete(caller: ChannelCaller, channelId: string, messageId: string): Promise<void> {
      const grant = await access.readable(caller, channelId);
      const row = await messageIn(channelId, messageId);
      if (row.user_id !== caller.id && !grant.write) throw forbidden('Only its author or the channel’s managers may delete a message', 'MESSAGE_FORBIDDEN');
      deps.stopAnswer(row.id);
      const fileIds = await repo.fileIdsUnder(row.id);
      await repo.delete(row.id);
      for (const file of await files.findMany(fileIds)) await files.delete(file);
      events.toChannel(grant.row, 'message:delete', { id: row.id, parent_id: row.parent_id }, { messageId: row.id, user: caller });
      if (row.parent_id) {
        const parent = await repo.find(row.parent_id);
        if (parent) events.toChannel(grant.row, 'message:reply', await presentOne(parent), { messageId: parent.id, user: caller });
      }
    },

    /** Adds (or removes) the caller's reaction; members see the message's reactions change live. */
    async react(caller: ChannelCaller, channelId: string, messageId: string, name: string, add: boolean): Promise<void> {
      const grant = await access.readable(caller, channelId);
      const row = await messageIn(channelId, messageId);
      await limits.consume(caller.id, 'reaction');
      if (add) {
        const names = await repo.reactionNames(row.id);
        if (!names.includes(name) && names.length >= MAX_REACTION_NAMES) throw badRequest(`A message holds at most ${MAX_REACTION_NAMES} different reactions`, 'TOO_MANY_REACTIONS');
        if (!(await repo.addReaction(row.id, caller.id, name, clock.nowMs()))) return;
      } else if (!(await repo.removeReaction(row.id, caller.id, name))) {
        return;
      }
      const presented = await presentOne(row);
      events.toChannel(grant.row, add ? 'message:reaction:add' : 'message:reaction:remove', { id: row.id, name, user_id: caller.id, reactions: presented.reactions }, { messageId: row.id, user: caller });
    },

    /** Stores files for a message to come (members with `chat.file_upload`; the usual upload limits). */
    async upload(caller: ChannelCaller, channelId: string, req: IncomingMessage): Promise<AttachmentFile[]> {
      await access.readable(caller, channelId);
      if (!(await deps.permissions.allows(caller, 'chat.file_upload'))) {
        req.resume();
        throw forbidden('You are not allowed to upload files', 'FILE_UPLOAD_FORBIDDEN');
      }
      await limits.consume(caller.id, 'upload');
      const rows = await receiveUploads(req, files, { userId: caller.id, purpose: 'channel', meta: { channel_id: channelId } });
      return rows.map(presentAttachment);
    },

    /** A file of a message, for a member of the channel. */
    async file(caller: ChannelCaller, channelId: string, messageId: string, fileId: string): Promise<FileRow> {
      await access.readable(caller, channelId);
      const row = await messageIn(channelId, messageId);
      const linked = (await repo.files([row.id])).some((f) => f.file_id === fileId);
      const file = linked ? await files.find(fileId) : undefined;
      if (!file) throw notFound('File not found', 'FILE_NOT_FOUND');
      return file;
    },

    /** Messages holding every word of `query`, across the caller's channels, newest first. */
    async search(caller: ChannelCaller, query: string, skip: number, limit: number): Promise<ChannelSearchHit[]> {
      const grants = await access.readableChannels(caller);
      const names = new Map(grants.map((g) => [g.row.id, g.row.name]));
      const words = query.split(/\s+/).filter(Boolean).slice(0, 8);
      const rows = await repo.search([...names.keys()], words, skip, limit);
      return (await present(rows)).map((m) => ({ ...m, channel: { id: m.channel_id, name: names.get(m.channel_id) ?? '' } }));
    },
  };
}
export type MessagesService = ReturnType<typeof createMessagesService>;
