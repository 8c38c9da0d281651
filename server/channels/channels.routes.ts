import { z } from 'zod';
import {
  Channel,
  ChannelForm,
  ChannelMember,
  ChannelMessage,
  ChannelSearchHit,
  ChannelSearchQuery,
  ChannelUpload,
  MessageForm,
  MessagePageQuery,
  ReactionForm,
  ReadForm,
  ReadPosition,
} from '../contracts/channels';
import { sendStoredFile, type FilesService } from '../files';
import { route, type Routes } from '../platform/http/route';
import { channelsCreateForbidden, type ChannelAccess } from './channel-access';
import type { ChannelsService } from './channels.service';
import type { MessagesService } from './messages.service';

/**
 * Channels on Open WebUI's paths (plus read positions, uploads, file downloads and search).
 * Mounted at `/api/v1/channels`. Every route answers 403 CHANNELS_DISABLED while ENABLE_CHANNELS
 * is off; a channel the caller is not a member of answers 404, before any body is read.
 */
export function channelsRoutes(deps: { access: ChannelAccess; channels: ChannelsService; messages: MessagesService; files: Pick<FilesService, 'openStream'> }): Routes {
  const { access, channels, messages, files } = deps;
  const enabled = () => access.requireEnabled();
  /** Channels on, and the caller a member: checked before the body is validated. */
  const member = async ({ user, params }: { user: { id: string; role: 'pending' | 'user' | 'admin' }; params: { id: string } }) => {
    await access.requireEnabled();
    await access.readable(user, params.id);
  };

  return [
    route({ method: 'get', path: '/', guard: 'user', authorize: enabled, summary: "The caller's channels, with unread counts", response: z.array(Channel) }, ({ user }) => channels.list(user)),
    route(
      { method: 'post', path: '/create', guard: 'user', permission: 'features.channels', refused: channelsCreateForbidden, authorize: enabled, body: ChannelForm, summary: 'Create a channel', response: Channel },
      ({ user, body }) => channels.create(user, body),
    ),
    route(
      { method: 'get', path: '/search', guard: 'user', authorize: enabled, query: ChannelSearchQuery, summary: "Messages holding every word, across the caller's channels", response: z.array(ChannelSearchHit) },
      ({ user, query }) => messages.search(user, query.query, query.skip, query.limit),
    ),
    route({ method: 'get', path: '/:id', guard: 'user', authorize: enabled, summary: 'A channel', response: Channel }, ({ user, params }) => channels.get(user, params.id)),
    route({ method: 'get', path: '/:id/members', guard: 'user', authorize: enabled, summary: 'Who can read the channel (its members), by name', response: z.array(ChannelMember) }, ({ user, params }) =>
      channels.members(user, params.id),
    ),
    route({ method: 'post', path: '/:id/update', guard: 'user', authorize: member, body: ChannelForm, summary: 'Change a channel (its managers)', response: Channel }, ({ user, params, body }) =>
      channels.update(user, params.id, body),
    ),
    route({ method: 'delete', path: '/:id/delete', guard: 'user', authorize: enabled, summary: 'Delete a channel with its messages (its managers)', response: z.boolean() }, async ({ user, params }) => {
      await channels.delete(user, params.id);
      return true;
    }),
    route({ method: 'post', path: '/:id/read', guard: 'user', authorize: member, body: ReadForm, summary: "Move the caller's read position", response: ReadPosition }, ({ user, params, body }) =>
      channels.markRead(user, params.id, body.message_id),
    ),
    route(
      { method: 'post', path: '/:id/files', guard: 'user', authorize: member, consumes: 'multipart', summary: 'Upload files for a message of the channel', response: z.array(ChannelUpload) },
      ({ user, params, req }) => messages.upload(user, params.id, req),
    ),
    route(
      { method: 'get', path: '/:id/messages', guard: 'user', authorize: enabled, query: MessagePageQuery, summary: "A page of the channel's messages, newest first", response: z.array(ChannelMessage) },
      ({ user, params, query }) => messages.page(user, params.id, query.skip, query.limit),
    ),
    route({ method: 'post', path: '/:id/messages/post', guard: 'user', authorize: member, body: MessageForm, summary: 'Post a message (or a reply in a thread)', response: ChannelMessage }, ({ user, params, body }) =>
      messages.post(user, params.id, body),
    ),
    route({ method: 'get', path: '/:id/messages/:message_id', guard: 'user', authorize: enabled, summary: 'A message', response: ChannelMessage }, ({ user, params }) =>
      messages.get(user, params.id, params.message_id),
    ),
    route(
      { method: 'get', path: '/:id/messages/:message_id/thread', guard: 'user', authorize: enabled, query: MessagePageQuery, summary: "A thread's replies, newest first, then its first message", response: z.array(ChannelMessage) },
      ({ user, params, query }) => messages.thread(user, params.id, params.message_id, query.skip, query.limit),
    ),
    route(
      { method: 'post', path: '/:id/messages/:message_id/update', guard: 'user', authorize: member, body: MessageForm, summary: "Change one's own message", response: ChannelMessage },
      ({ user, params, body }) => messages.update(user, params.id, params.message_id, body),
    ),
    route(
      { method: 'delete', path: '/:id/messages/:message_id/delete', guard: 'user', authorize: enabled, summary: 'Delete a message (its author, managers, admins)', response: z.boolean() },
      async ({ user, params }) => {
        await messages.delete(user, params.id, params.message_id);
        return true;
      },
    ),
    route(
      { method: 'post', path: '/:id/messages/:message_id/reactions/add', guard: 'user', authorize: member, body: ReactionForm, summary: 'Add a reaction', response: z.boolean() },
      async ({ user, params, body }) => {
        await messages.react(user, params.id, params.message_id, body.name, true);
        return true;
      },
    ),
    route(
      { method: 'post', path: '/:id/messages/:message_id/reactions/remove', guard: 'user', authorize: member, body: ReactionForm, summary: 'Remove a reaction', response: z.boolean() },
      async ({ user, params, body }) => {
        await messages.react(user, params.id, params.message_id, body.name, false);
        return true;
      },
    ),
    route(
      { method: 'get', path: '/:id/messages/:message_id/files/:file_id', guard: 'user', authorize: enabled, produces: 'binary', summary: 'A file of a message (members)' },
      async ({ user, params, res }) => {
        sendStoredFile(res, await messages.file(user, params.id, params.message_id, params.file_id), files, { 'cache-control': 'private, max-age=3600' });
      },
    ),
  ];
}
