import type { ChangeFeed } from '../collection-changes';

/**
 * Calls `listener` with the key of every job of `kind` another instance than `instance` ended
 * (done or failed), as PostgreSQL announces it (migration 202611270701: `jobs|<writer>|<kind>|<key>`);
 * with no key when the feed was down and any job may have ended meanwhile. No feed on SQLite:
 * one instance ends every job itself.
 */
export function followJobEnds(feed: ChangeFeed | undefined, instance: string | undefined, kind: string, listener: (key?: string) => void): void {
  feed?.((payload) => {
    const [table, writer, jobKind, ...key] = payload.split('|');
    if (table !== 'jobs') return;
    if (writer === undefined) return listener();
    if (writer === instance || jobKind !== kind || key.length === 0) return;
    listener(key.join('|'));
  });
}
