import type { Role } from '../contracts/auth';
import { forbidden, notFound } from '../platform/http/errors';
import { canAccess, type OwnedResource, type PermissionsService, type Principal } from '../permissions';
import { accessOf } from './channels.present';
import type { ChannelRow, ChannelsRepo } from './channels.repo';

/** The caller as channel rules see them. */
export interface ChannelCaller {
  id: string;
  role: Role;
  name: string;
  /** Their picture, for messages they post (the default one when absent). */
  profile_image_url?: string;
}

/** A channel the caller may read, and whether they manage it. */
export interface ChannelGrant {
  row: ChannelRow;
  who: Principal;
  write: boolean;
}

/** The refusal while ENABLE_CHANNELS is off (everyone, admins too: channels do not exist then). */
export const channelsDisabled = () => forbidden('Channels are turned off by the administrator', 'CHANNELS_DISABLED');
export const channelNotFound = () => notFound('Channel not found', 'CHANNEL_NOT_FOUND');
/** The refusal without the `features.channels` permission. */
export const channelsCreateForbidden = () => forbidden('You are not allowed to create channels', 'CHANNELS_CREATE_FORBIDDEN');

/** A channel as the shared access check sees it (a channel whose creator is gone has no owner). */
export function resourceOf(row: ChannelRow): OwnedResource {
  return { user_id: row.user_id ?? '', access_control: accessOf(row) };
}

/**
 * Membership through `access_control`, like other workspace objects (the one check in
 * permissions/access.ts): `read` = see and post, `write` = manage; the creator and admins manage
 * every channel they own or see. A channel the caller may not read answers like a missing one.
 * Nothing is reachable while ENABLE_CHANNELS is off; pending accounts are never members.
 */
export function createChannelAccess(deps: { repo: ChannelsRepo; permissions: PermissionsService; enabled: () => Promise<boolean> }) {
  const { repo, permissions } = deps;

  const grantOf = (row: ChannelRow, who: Principal): ChannelGrant | undefined =>
    who.role !== 'pending' && canAccess(who, resourceOf(row), 'read') ? { row, who, write: canAccess(who, resourceOf(row), 'write') } : undefined;

  return {
    enabled: deps.enabled,

    /** Throws 403 CHANNELS_DISABLED while channels are off. */
    async requireEnabled(): Promise<void> {
      if (!(await deps.enabled())) throw channelsDisabled();
    },

    grantOf,

    /** The channel if the caller may read it: 404 otherwise. */
    async readable(caller: { id: string; role: Role }, id: string): Promise<ChannelGrant> {
      const [row, who] = await Promise.all([repo.find(id), permissions.principal(caller)]);
      const grant = row ? grantOf(row, who) : undefined;
      if (!grant) throw channelNotFound();
      return grant;
    },

    /** The channel if the caller manages it: 404 unreadable, 403 a member who does not manage it. */
    async writable(caller: { id: string; role: Role }, id: string): Promise<ChannelGrant> {
      const grant = await this.readable(caller, id);
      if (!grant.write) throw forbidden('Only the channel’s managers may do this', 'CHANNEL_FORBIDDEN');
      return grant;
    },

    /** Every channel the caller may read, by name. */
    async readableChannels(caller: { id: string; role: Role }): Promise<ChannelGrant[]> {
      const [rows, who] = await Promise.all([repo.all(), permissions.principal(caller)]);
      return rows.flatMap((row) => grantOf(row, who) ?? []);
    },

    /** The people who can read a channel (its members), with their names. */
    async members(row: ChannelRow): Promise<Array<{ id: string; name: string }>> {
      return (await repo.accounts()).filter((a) => grantOf(row, { id: a.id, role: a.role, groupIds: a.groupIds })).map((a) => ({ id: a.id, name: a.name }));
    },

    /** Whether the caller may create channels: admins, and users holding `features.channels`. */
    async mayCreate(caller: { id: string; role: Role }): Promise<boolean> {
      return permissions.allows(caller, 'features.channels');
    },
  };
}
export type ChannelAccess = ReturnType<typeof createChannelAccess>;
