import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server as SocketServer, type Socket } from 'socket.io';
import type { AuthContext } from '../session';
import type { Logger } from '../platform/log';
import type { PostgresCluster } from './postgres-cluster';

/** Resolves a socket's credential to its user (or refuses it). */
export type SocketAuthenticator = (credential: string) => Promise<AuthContext | string>;

/** How often every open socket's credential is checked again (a token that expired, any change missed). */
const RECHECK_EVERY_MS = 60_000;

/** What a socket remembers of the session that opened it. */
interface SocketSession {
  userId: string;
  via: AuthContext['via'];
  tokenId?: string;
  credential: string;
}

/** Rooms by session: every socket of a user, of their session tokens, of one token, of their API key, of any API key. */
const rooms = {
  user: (userId: string) => `user:${userId}`,
  tokensOf: (userId: string) => `tokens:${userId}`,
  token: (tokenId: string) => `token:${tokenId}`,
  apiKeyOf: (userId: string) => `api-key:${userId}`,
  apiKeys: 'api-keys',
};

/** Why an authenticated credential may still not open a socket. */
const refusal = (result: AuthContext | string): string | undefined => {
  if (typeof result === 'string') return 'Invalid token or API key';
  if (result.user.role === 'pending') return 'Account pending approval';
  return undefined;
};

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
  let recheck: NodeJS.Timeout | undefined;
  let authenticate: SocketAuthenticator = async () => 'invalid';

  /** Disconnects this instance's sockets whose credential no longer opens a socket (or now names someone else). */
  async function recheckSockets(): Promise<void> {
    const sockets = io ? await io.local.fetchSockets() : [];
    for (const socket of sockets) {
      const session = socket.data as SocketSession;
      // A failed check (the database busy or away) is no verdict: the socket stays until the next one.
      const result = await authenticate(session.credential).catch(() => undefined);
      if (result === undefined) continue;
      if (refusal(result) || (typeof result !== 'string' && result.user.id !== session.userId)) socket.disconnect(true);
    }
  }

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
      authenticate = authenticateSocket;
      io.use((socket, next) => {
        const credential = credentialOf(socket);
        if (!credential) return next(new Error('Not authenticated'));
        authenticateSocket(credential)
          .then((result) => {
            const refused = refusal(result);
            if (refused || typeof result === 'string') return next(new Error(refused));
            socket.data = { userId: result.user.id, via: result.via, tokenId: result.tokenId, credential } satisfies SocketSession;
            next();
          })
          .catch((error: unknown) => next(error instanceof Error ? error : new Error(String(error))));
      });
      io.on('connection', (socket) => {
        const { userId, via, tokenId } = socket.data as SocketSession;
        // Rooms by session, so that ending a session (sign-out, password change, key deleted) drops its sockets on every instance.
        void socket.join([rooms.user(userId), ...(via === 'jwt' ? [rooms.tokensOf(userId), ...(tokenId ? [rooms.token(tokenId)] : [])] : [rooms.apiKeyOf(userId), rooms.apiKeys])]);
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
      recheck = setInterval(() => void recheckSockets().catch((error: unknown) => log.warn({ err: error }, 'checking open sockets failed')), RECHECK_EVERY_MS);
      recheck.unref();
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

    /** Drops every socket of a user, on every instance (the account was deleted or is pending again). */
    disconnectUser(userId: string): void {
      io?.in(rooms.user(userId)).disconnectSockets(true);
    },

    /** Drops the sockets opened with one session token (it was signed out). */
    disconnectToken(tokenId: string): void {
      io?.in(rooms.token(tokenId)).disconnectSockets(true);
    },

    /** Drops the sockets of a user's session tokens but `keepTokenId`'s (their sessions were ended). */
    disconnectTokensOf(userId: string, keepTokenId?: string): void {
      const sessions = io?.in(rooms.tokensOf(userId));
      (keepTokenId ? sessions?.except(rooms.token(keepTokenId)) : sessions)?.disconnectSockets(true);
    },

    /** Drops the sockets opened with a user's API key (it was deleted or replaced). */
    disconnectApiKeyOf(userId: string): void {
      io?.in(rooms.apiKeyOf(userId)).disconnectSockets(true);
    },

    /** Drops every socket opened with an API key (API keys were switched off). */
    disconnectApiKeys(): void {
      io?.in(rooms.apiKeys).disconnectSockets(true);
    },

    /** Checks every open socket of this instance again now (what the minute's check does). */
    recheck: recheckSockets,

    async close(): Promise<void> {
      if (recheck) clearInterval(recheck);
      recheck = undefined;
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
