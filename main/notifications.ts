import type { DesktopNotice } from '../server/contracts/desktop';
import type { ShellText } from './shell-text';

/** A system notification, as the shell drives Electron's. */
export interface NotificationLike {
  show(): void;
  on(event: 'click', listener: () => void): unknown;
}

/** Makes a system notification (Electron's `new Notification(options)`). */
export type CreateNotification = (options: { title: string; body: string; silent?: boolean }) => NotificationLike;

/** Longest text a notification shows. */
const MAX_BODY = 200;
const MAX_NAME = 120;

const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined);

/**
 * A notice the page sent, checked field by field (the page is trusted as far as its origin, not
 * its shapes): a channel mention with an id-like channel id and short texts, else undefined.
 */
export function desktopNotice(raw: unknown): DesktopNotice | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const n = raw as Record<string, unknown>;
  if (n.kind !== 'channel-mention' || typeof n.channel_id !== 'string' || !/^[\w-]{1,100}$/.test(n.channel_id)) return undefined;
  const channelName = text(n.channel_name, MAX_NAME);
  const author = text(n.author, MAX_NAME);
  if (!channelName || !author) return undefined;
  return { kind: 'channel-mention', channel_id: n.channel_id, channel_name: channelName, author, preview: text(n.preview, MAX_BODY) ?? '', everyone: n.everyone === true };
}

/**
 * Shows a notice as a system notification worded from the desktop catalogs in the person's
 * language ("Ann mentioned you in #launch"), the message's start as its body; a click opens the
 * channel in the window.
 */
export function showNotice(notice: DesktopNotice, deps: { create: CreateNotification; text: ShellText; open: (path: string) => void }): void {
  const vars = { author: notice.author, channel: notice.channel_name };
  const title = notice.everyone ? deps.text.t('desktop.notify.everyone', vars) : deps.text.t('desktop.notify.mention', vars);
  const shown = deps.create({ title, body: notice.preview });
  shown.on('click', () => deps.open(`/channels/${encodeURIComponent(notice.channel_id)}`));
  shown.show();
}
