import { randomUUID } from 'node:crypto';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Server as SocketServer } from 'socket.io';
import type { Logger } from '../platform/log';
import { publishInOrder } from './ordered-publishing';

/** How often each instance repeats who is connected to it, and how long a repeat counts. */
const ANNOUNCE_EVERY_MS = 5_000;
const ANNOUNCEMENT_LASTS_MS = 3 * ANNOUNCE_EVERY_MS;

const PRESENCE_EVENT = 'parley:presence';
const PRESENCE_REQUEST_EVENT = 'parley:presence-request';

interface PresenceAnnouncement {
  instance: string;
  userIds: string[];
}

/** Socket.io across the instances sharing one PostgreSQL database. */
export interface PostgresCluster {
  /** Installs the adapter on `io` and starts exchanging presence; `localUserIds` are this instance's connected users. */
  attach(io: SocketServer, localUserIds: () => string[]): void;
  /** Says this instance's connected users changed (a first connection or a last disconnection). */
  localPresenceChanged(): void;
  /** Users connected to the other instances. */
  remoteUserIds(): Set<string>;
  /** Tells the others this instance has no one left and stops announcing (before socket.io closes). */
  leave(): Promise<void>;
  /** Ends the connections (after socket.io closed, which releases the listening one). */
  close(): Promise<void>;
}

/**
 * `@socket.io/postgres-adapter` over a small pool of its own (one connection LISTENs, the others
 * publish through NOTIFY, one message after another: see ordered-publishing.ts): events sent to a
 * room or to everyone reach the sockets of every instance, in the order they were sent, and
 * disconnecting a user's sockets reaches them all. Presence travels beside it: each instance
 * announces its connected users on every change and every 5 s; an instance that stops announcing
 * (it died) stops counting after 15 s.
 */
export function createPostgresCluster(connectionString: string, log: Logger): PostgresCluster {
  const pool = new pg.Pool({ connectionString, max: 3, application_name: 'parley-realtime' });
  pool.on('error', (error) => log.warn({ err: error.message }, 'realtime cluster connection lost'));
  const instance = randomUUID();
  const remote = new Map<string, { userIds: Set<string>; heardAt: number }>();
  let io: SocketServer | undefined;
  let localUserIds: () => string[] = () => [];
  let timer: NodeJS.Timeout | undefined;

  const announce = (userIds = localUserIds()) => {
    io?.serverSideEmit(PRESENCE_EVENT, { instance, userIds } satisfies PresenceAnnouncement);
  };

  return {
    attach(server, local) {
      io = server;
      localUserIds = local;
      const reportFailure = (error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'realtime cluster message failed');
      const adapterFor = createAdapter(pool, { tableName: 'parley_realtime.socket_io_attachments', errorHandler: reportFailure });
      // A function, not an arrow: socket.io constructs the adapter with `new`.
      server.adapter(function orderedAdapter(nsp: Parameters<typeof adapterFor>[0]) {
        return publishInOrder(adapterFor(nsp), reportFailure);
      });
      server.on(PRESENCE_EVENT, (message: PresenceAnnouncement) => {
        if (typeof message?.instance !== 'string' || !Array.isArray(message.userIds)) return;
        if (message.userIds.length === 0) remote.delete(message.instance);
        else remote.set(message.instance, { userIds: new Set(message.userIds.filter((id) => typeof id === 'string')), heardAt: Date.now() });
      });
      server.on(PRESENCE_REQUEST_EVENT, () => announce());
      timer = setInterval(() => {
        const now = Date.now();
        for (const [id, entry] of remote) if (now - entry.heardAt > ANNOUNCEMENT_LASTS_MS) remote.delete(id);
        announce();
      }, ANNOUNCE_EVERY_MS);
      timer.unref();
      // A new instance asks the others who is connected to them.
      server.serverSideEmit(PRESENCE_REQUEST_EVENT);
    },
    localPresenceChanged() {
      announce();
    },
    remoteUserIds() {
      const now = Date.now();
      const ids = new Set<string>();
      for (const entry of remote.values()) if (now - entry.heardAt <= ANNOUNCEMENT_LASTS_MS) for (const id of entry.userIds) ids.add(id);
      return ids;
    },
    async leave() {
      if (timer) clearInterval(timer);
      timer = undefined;
      announce([]);
      // Let the goodbye reach the database before the adapter closes.
      await new Promise((resolve) => setTimeout(resolve, 50));
      io = undefined;
    },
    async close() {
      if (timer) clearInterval(timer);
      await pool.end().catch(() => undefined);
    },
  };
}
