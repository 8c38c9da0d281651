import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server as SocketServer, type Socket } from 'socket.io';
import type { AuthContext } from '../session';
import type { Logger } from '../platform/log';
import type { PostgresCluster } from './postgres-cluster';

/** Resolves a socket's credential to its user (or refuses it). */
export type SocketAuthenticator = (credential: string) => Promise<AuthContext | string>;

/** Whether a user may follow one item of a topic (`note` and a note id); asked on every subscribe and every event sent. */
export type TopicAuthorizer = (userId: string, id: string) => Promise<boolean>;

/** The answer to a client's `subscribe` / `unsubscribe` (its acknowledgement). */
export interface SubscribeAnswer {
  ok: boolean;
  detail?: string;
}

const TOPIC = /^([a-z]+):([A-Za-z0-9_-]{1,100})$/;
const roomOf = (topic: string) => `topic:${topic}`;

/**
 * The one place features push live events to a user's open clients (presence, ingestion and
 * graph progress, chat updates), and the source of "active users": a user is active while at
 * least one authenticated socket.io connection of theirs is open. With `cluster` (several
 * instances on one PostgreSQL) events reach the sockets of every instance and presence counts
 * the users connected to any of them.
 */
export function createRealtimeHub(log: Logger, cluster?: PostgresCluster) {
  const connections = new Map<string, Set<string>>();
  const topics = new Map<string, TopicAuthorizer>();
  let io: SocketServer | undefined;

  /** A client asks to follow `note:<id>`: joined only when the topic's authorizer allows it. */
  async function subscribe(socket: Socket, payload: unknown): Promise<SubscribeAnswer> {
    const topic = typeof payload === 'object' && payload !== null ? (payload as { topic?: unknown }).topic : undefined;
    const match = typeof topic === 'string' ? TOPIC.exec(topic) : null;
    const authorize = match ? topics.get(match[1]!) : undefined;
    if (!match || !authorize) return { ok: false, detail: 'Unknown topic' };
    if (!(await authorize(socket.data.userId as string, match[2]!))) return { ok: false, detail: 'Not allowed' };
    await socket.join(roomOf(topic as string));
    return { ok: true };
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
        socket.on('subscribe', (payload: unknown, ack?: unknown) => {
          const reply = typeof ack === 'function' ? (ack as (answer: SubscribeAnswer) => void) : () => undefined;
          subscribe(socket, payload).then(reply, (error: unknown) => {
            log.warn({ err: error }, 'a live subscription failed');
            reply({ ok: false, detail: 'Subscription failed' });
          });
        });
        socket.on('unsubscribe', (payload: unknown, ack?: unknown) => {
          const topic = typeof payload === 'object' && payload !== null ? (payload as { topic?: unknown }).topic : undefined;
          if (typeof topic === 'string' && TOPIC.test(topic)) void socket.leave(roomOf(topic));
          if (typeof ack === 'function') (ack as (answer: SubscribeAnswer) => void)({ ok: true });
        });
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

    /** Lets clients follow items of a topic (`note:<id>`) that `authorize` allows them to see. */
    defineTopic(name: string, authorize: TopicAuthorizer): void {
      topics.set(name, authorize);
    },

    /**
     * Sends an event to the clients following `topic` whose user the topic's authorizer still
     * allows (asked again now: access may have changed since they subscribed); the others are
     * dropped from it. `recheck: false` sends to every follower (news that the item is gone).
     */
    async emitToTopic(topic: string, event: string, payload: unknown, options: { recheck?: boolean } = {}): Promise<void> {
      const match = TOPIC.exec(topic);
      const authorize = match ? topics.get(match[1]!) : undefined;
      if (!io || !match || !authorize) return;
      if (options.recheck === false) {
        io.to(roomOf(topic)).emit(event, payload);
        return;
      }
      const sockets = await io.in(roomOf(topic)).fetchSockets();
      const decided = new Map<string, Promise<boolean>>();
      for (const socket of sockets) {
        const userId = socket.data.userId as string;
        let allowed = decided.get(userId);
        if (!allowed) decided.set(userId, (allowed = authorize(userId, match[2]!).catch(() => false)));
        if (await allowed) socket.emit(event, payload);
        else socket.leave(roomOf(topic));
      }
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
