import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server as SocketServer, type Socket } from 'socket.io';
import type { AuthContext } from '../session';
import type { Logger } from '../platform/log';
import type { PostgresCluster } from './postgres-cluster';

/** Resolves a socket's credential to its user (or refuses it). */
export type SocketAuthenticator = (credential: string) => Promise<AuthContext | string>;

/**
 * The one place features push live events to a user's open clients (presence, ingestion and
 * graph progress, chat updates), and the source of "active users": a user is active while at
 * least one authenticated socket.io connection of theirs is open. With `cluster` (several
 * instances on one PostgreSQL) events reach the sockets of every instance and presence counts
 * the users connected to any of them.
 */
export function createRealtimeHub(log: Logger, cluster?: PostgresCluster) {
  const connections = new Map<string, Set<string>>();
  let io: SocketServer | undefined;

  function credentialOf(socket: Socket): string | undefined {
    const auth = socket.handshake.auth as Record<string, unknown> | undefined;
    if (typeof auth?.token === 'string') return auth.token;
    const header = socket.handshake.headers.authorization;
    if (typeof header === 'string' && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
    const cookie = socket.handshake.headers.cookie;
    const match = typeof cookie === 'string' ? /(?:^|;\s*)token=([^;]+)/.exec(cookie) : null;
    return match?.[1] ? decodeURIComponent(match[1]) : undefined;
  }

  return {
    /** Starts accepting socket.io connections on `server`; `allowRequest` refuses handshakes (foreign Host or Origin). */
    attach(server: HttpServer, authenticateSocket: SocketAuthenticator, allowRequest: (req: IncomingMessage) => boolean = () => true): void {
      io = new SocketServer(server, {
        serveClient: false,
        pingInterval: 5000,
        pingTimeout: 5000,
        cors: { origin: false },
        allowRequest: (req, callback) => callback(null, allowRequest(req)),
      });
      io.use((socket, next) => {
        const credential = credentialOf(socket);
        if (!credential) return next(new Error('Not authenticated'));
        authenticateSocket(credential)
          .then((result) => {
            if (typeof result === 'string') return next(new Error('Invalid token or API key'));
            socket.data.userId = result.user.id;
            next();
          })
          .catch((error: unknown) => next(error instanceof Error ? error : new Error(String(error))));
      });
      io.on('connection', (socket) => {
        const userId = socket.data.userId as string;
        void socket.join(`user:${userId}`);
        const set = connections.get(userId) ?? new Set<string>();
        set.add(socket.id);
        connections.set(userId, set);
        if (set.size === 1) cluster?.localPresenceChanged();
        socket.on('disconnect', () => {
          set.delete(socket.id);
          if (set.size === 0) {
            connections.delete(userId);
            cluster?.localPresenceChanged();
          }
        });
      });
      cluster?.attach(io, () => [...connections.keys()]);
      log.debug('realtime channel ready');
    },

    /** Sends an event to every open client of a user. */
    emitToUser(userId: string, event: string, payload: unknown): void {
      io?.to(`user:${userId}`).emit(event, payload);
    },

    /** Sends an event to every connected client. */
    broadcast(event: string, payload: unknown): void {
      io?.emit(event, payload);
    },

    isActive(userId: string): boolean {
      return connections.has(userId) || (cluster?.remoteUserIds().has(userId) ?? false);
    },

    activeUserIds(): string[] {
      return [...new Set([...connections.keys(), ...(cluster?.remoteUserIds() ?? [])])];
    },

    /** Drops every socket of a user (for example after the account was deleted). */
    disconnectUser(userId: string): void {
      io?.in(`user:${userId}`).disconnectSockets(true);
    },

    async close(): Promise<void> {
      if (!io) return;
      // This instance's sockets only (with a cluster, io.disconnectSockets reaches every instance).
      io.local.disconnectSockets(true);
      await cluster?.leave();
      await new Promise<void>((resolve) => {
        io?.close(() => resolve());
        // socket.io's close also closes the http server; resolve even if it was closed already
        setTimeout(resolve, 200).unref();
      });
      io = undefined;
      await cluster?.close();
    },
  };
}
export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
