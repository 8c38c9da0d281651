import type { AccessControl } from '../contracts/access';
import type { Channel, ChannelForm, ChannelMember, ReadPosition } from '../contracts/channels';
import type { Clock } from '../platform/clock';
import { writeJson } from '../platform/db/json';
import { notFound } from '../platform/http/errors';
import { newId } from '../platform/ids';
import { channelsCreateForbidden, type ChannelAccess, type ChannelCaller } from './channel-access';
import type { ChannelEvents } from './channel-events';
import { presentChannel, toNs } from './channels.present';
import type { ChannelRow, ChannelsRepo } from './channels.repo';
import type { MessagesRepo } from './messages.repo';

/** What the channel service needs besides its tables. */
export interface ChannelsServiceDeps {
  repo: ChannelsRepo;
  messages: MessagesRepo;
  access: ChannelAccess;
  events: ChannelEvents;
  /** Removes uploads (a deleted channel's files). */
  deleteFiles(ids: readonly string[]): Promise<void>;
  /** Brings this instance's live subscriptions in line with who may read what, at once. */
  resync(): Promise<void>;
  clock: Clock;
}

const storedAccess = (value: AccessControl | undefined): string | null => (value === undefined || value === null ? null : writeJson(value));

/** Channels themselves: the caller's list (with unread counts), create, read, change, delete, and read positions. */
export function createChannelsService(deps: ChannelsServiceDeps) {
  const { repo, access, events, clock } = deps;

  async function presentFor(caller: ChannelCaller, row: ChannelRow, write: boolean): Promise<Channel> {
    const activity = (await repo.activity(caller.id, [row.id])).get(row.id);
    return presentChannel(row, { writeAccess: write, activity });
  }

  return {
    /** The channels the caller is a member of, by name, each with their unread count. */
    async list(caller: ChannelCaller): Promise<Channel[]> {
      const grants = await access.readableChannels(caller);
      const activity = await repo.activity(
        caller.id,
        grants.map((g) => g.row.id),
      );
      return grants.map((g) => presentChannel(g.row, { writeAccess: g.write, activity: activity.get(g.row.id) }));
    },

    /** Creates a channel (admins, users with `features.channels`); open to every account unless `access_control` says otherwise. */
    async create(caller: ChannelCaller, form: ChannelForm): Promise<Channel> {
      if (!(await access.mayCreate(caller))) throw channelsCreateForbidden();
      const now = clock.nowMs();
      const row: ChannelRow = {
        id: newId(),
        user_id: caller.id,
        name: form.name,
        description: form.description ?? null,
        data: form.data ? writeJson(form.data) : null,
        access_control: storedAccess(form.access_control),
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      await deps.resync();
      return presentFor(caller, row, true);
    },

    async get(caller: ChannelCaller, id: string): Promise<Channel> {
      const grant = await access.readable(caller, id);
      return presentFor(caller, grant.row, grant.write);
    },

    /** The channel's members by name (mention suggestions, the member count). */
    async members(caller: ChannelCaller, id: string): Promise<ChannelMember[]> {
      const grant = await access.readable(caller, id);
      return (await access.members(grant.row)).sort((a, b) => a.name.localeCompare(b.name));
    },

    /** Changes a channel (its managers). Members who lose access stop receiving its events at once. */
    async update(caller: ChannelCaller, id: string, form: ChannelForm): Promise<Channel> {
      const grant = await access.writable(caller, id);
      const patch: Partial<ChannelRow> = {
        name: form.name,
        description: form.description === undefined ? grant.row.description : form.description,
        data: form.data === undefined ? grant.row.data : form.data === null ? null : writeJson(form.data),
        access_control: form.access_control === undefined ? grant.row.access_control : storedAccess(form.access_control),
        updated_at: clock.nowMs(),
      };
      const next: ChannelRow = { ...grant.row, ...patch };
      await repo.update(id, patch);
      const presented = await presentFor(caller, next, grant.write);
      events.toChannel(next, 'channel:update', { id: next.id, name: next.name, description: next.description }, { user: caller });
      await deps.resync();
      return presented;
    },

    /** Deletes a channel with its messages, reactions, read positions and files. */
    async delete(caller: ChannelCaller, id: string): Promise<void> {
      const grant = await access.writable(caller, id);
      const fileIds = await deps.messages.fileIdsOfChannel(id);
      events.toChannel(grant.row, 'channel:delete', { id }, { user: caller });
      await repo.delete(id);
      await deps.deleteFiles(fileIds);
      await deps.resync();
    },

    /** Moves the caller's read position to a message of the channel (default: now); members see it live. */
    async markRead(caller: ChannelCaller, id: string, messageId?: string): Promise<ReadPosition> {
      const grant = await access.readable(caller, id);
      let at = clock.nowMs();
      if (messageId) {
        const message = await deps.messages.find(messageId);
        if (!message || message.channel_id !== id) throw notFound('Message not found', 'MESSAGE_NOT_FOUND');
        at = message.created_at;
      }
      const stored = await repo.markRead(id, caller.id, at);
      const position: ReadPosition = { channel_id: id, user_id: caller.id, last_read_at: toNs(stored) };
      events.toChannel(grant.row, 'read', position, { user: caller });
      return position;
    },
  };
}
export type ChannelsService = ReturnType<typeof createChannelsService>;
