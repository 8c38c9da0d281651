import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server as SocketServer, type BroadcastOperator, type DefaultEventsMap, type Socket } from 'socket.io';
import type { AuthContext } from '../session';
import type { Logger } from '../platform/log';
import type { PostgresCluster } from './postgres-cluster';

/** Resolves a socket's credential to its user (or refuses it); `recheck` is a later check of an open socket (not new activity). */
export type SocketAuthenticator = (credential: string, recheck?: boolean) => Promise<AuthContext | string>;

/** What the hub keeps on each socket (`socket.data`). */
export interface LiveSocketData {
  userId: string;
  name: string;
  role: string;
  /** The credential it connected with, checked again when sessions change. */
  credential: string;
  /** How it signed in, and its session token's id: the rooms that let an ended session drop its sockets. */
  via: AuthContext['via'];
  tokenId?: string;
}

/** A connected, authenticated socket as domains see it. */
export type LiveSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, LiveSocketData>;

/** Called for each new socket, and for an open socket whose account changed role. */
export type SocketListener = (socket: LiveSocket) => void;

/** How long session re-checks wait to gather several changes into one pass. */
const RECHECK_DELAY_MS = 50;

/** Whether a user may follow one item of a topic (`note` and a note id); asked on every subscribe and every event sent. */
export type TopicAuthorizer = (userId: string, id: string) => Promise<boolean>;

/** The answer to a client's `subscribe` / `unsubscribe` (its acknowledgement). */
export interface SubscribeAnswer {
  ok: boolean;
  detail?: string;
}

const TOPIC = /^([a-z]+):([A-Za-z0-9_-]{1,100})$/;
const roomOf = (topic: string) => `topic:${topic}`;

/** How often every open socket's credential is checked again (a token that expired, any change missed). */
const RECHECK_EVERY_MS = 60_000;

/** Rooms by session: every socket of a user, of their session tokens, of one token, of their API key, of any API key. */
const rooms = {
  user: (userId: string) => `user:${userId}`,
  tokensOf: (userId: string) => `tokens:${userId}`,
  token: (tokenId: string) => `token:${tokenId}`,
  apiKeyOf: (userId: string) => `api-key:${userId}`,
  apiKeys: 'api-keys',
};

/**
 * Closes the sockets `target` names: this instance's at once, then (with a cluster) the other
 * instances' through the database. The cluster adapter closes local sockets only after its
 * broadcast was published, which a busy database can delay for seconds: an ended session must
 * not keep receiving events here meanwhile.
 */
function dropAll(target: BroadcastOperator<DefaultEventsMap, unknown> | undefined): void {
  target?.local.disconnectSockets(true);
  target?.disconnectSockets(true);
}

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
  const topics = new Map<string, TopicAuthorizer>();
  let io: SocketServer | undefined;
  let periodic: NodeJS.Timeout | undefined;
  let authenticate: SocketAuthenticator | undefined;
  const connectListeners: SocketListener[] = [];
  const roleListeners: SocketListener[] = [];
  let recheckTimer: NodeJS.Timeout | undefined;
  let rechecking: Promise<void> | undefined;

  const localSockets = (): LiveSocket[] => (io ? ([...io.of('/').sockets.values()] as unknown as LiveSocket[]) : []);

  /** Checks every open socket's credential again: refused ones are dropped, a changed role is announced. */
  async function recheckSessions(): Promise<void> {
    const check = authenticate;
    if (!check) return;
    await Promise.all(
      localSockets().map(async (socket) => {
        const result = await check(socket.data.credential, true).catch(() => 'error');
        if (typeof result === 'string') {
          if (result !== 'error') socket.disconnect(true);
          return;
        }
        // Pending again, or the credential now names someone else: no live connection.
        if (refusal(result) || result.user.id !== socket.data.userId) {
          socket.disconnect(true);
          return;
        }
        socket.data.name = result.user.name;
        if (result.user.role === socket.data.role) return;
        socket.data.role = result.user.role;
        for (const listener of roleListeners) listener(socket);
      }),
    );
  }

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
      authenticate = authenticateSocket;
      io.use((socket, next) => {
        const credential = credentialOf(socket);
        if (!credential) return next(new Error('Not authenticated'));
        authenticateSocket(credential)
          .then((result) => {
            const refused = refusal(result);
            if (refused || typeof result === 'string') return next(new Error(refused));
            const data: LiveSocketData = { userId: result.user.id, name: result.user.name, role: result.user.role, credential, via: result.via, tokenId: result.tokenId };
            Object.assign(socket.data as object, data);
            next();
          })
          .catch((error: unknown) => next(error instanceof Error ? error : new Error(String(error))));
      });
      io.on('connection', (socket) => {
        const { userId, via, tokenId } = socket.data as LiveSocketData;
        // Rooms by session, so that ending a session (sign-out, password change, key deleted) drops its sockets on every instance.
        void socket.join([rooms.user(userId), ...(via === 'jwt' ? [rooms.tokensOf(userId), ...(tokenId ? [rooms.token(tokenId)] : [])] : [rooms.apiKeyOf(userId), rooms.apiKeys])]);
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
        for (const listener of connectListeners) listener(socket as unknown as LiveSocket);
      });
      cluster?.attach(io, () => [...connections.keys()]);
      periodic = setInterval(() => void recheckSessions().catch((error: unknown) => log.warn({ err: error }, 'checking open sockets failed')), RECHECK_EVERY_MS);
      periodic.unref();
      log.debug('realtime channel ready');
    },

    /** Sends an event to every open client of a user. */
    emitToUser(userId: string, event: string, payload: unknown): void {
      io?.to(`user:${userId}`).emit(event, payload);
    },

    /** Sends an event to every client in a room (on every instance), encoded once. */
    emitToRoom(room: string, event: string, payload: unknown): void {
      io?.to(room).emit(event, payload);
    },

    /** Runs `listener` for every new socket (a domain registers its socket events there). */
    onConnection(listener: SocketListener): void {
      connectListeners.push(listener);
    },

    /** Runs `listener` for an open socket whose account changed role (its rights changed). */
    onRoleChange(listener: SocketListener): void {
      roleListeners.push(listener);
    },

    /** This instance's open sockets. */
    localSockets,

    /**
     * Checks every open socket's session again, soon (changes close together make one pass): a
     * signed-out, revoked or deleted session loses its connection; a demoted one its rights.
     */
    recheckSessionsSoon(): void {
      if (recheckTimer || !io) return;
      recheckTimer = setTimeout(() => {
        recheckTimer = undefined;
        rechecking = (rechecking ?? Promise.resolve()).then(recheckSessions).catch((error: unknown) => log.warn({ err: error }, 'checking live sessions failed'));
      }, RECHECK_DELAY_MS);
      recheckTimer.unref();
    },

    /** Checks every open socket's session again now. */
    recheckSessions,

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

    /** Drops every socket of a user, on every instance (the account was deleted or is pending again). */
    disconnectUser(userId: string): void {
      dropAll(io?.in(rooms.user(userId)));
    },

    /** Drops the sockets opened with one session token (it was signed out). */
    disconnectToken(tokenId: string): void {
      dropAll(io?.in(rooms.token(tokenId)));
    },

    /** Drops the sockets of a user's session tokens but `keepTokenId`'s (their sessions were ended). */
    disconnectTokensOf(userId: string, keepTokenId?: string): void {
      const sessions = io?.in(rooms.tokensOf(userId));
      dropAll(keepTokenId ? sessions?.except(rooms.token(keepTokenId)) : sessions);
    },

    /** Drops the sockets opened with a user's API key (it was deleted or replaced). */
    disconnectApiKeyOf(userId: string): void {
      dropAll(io?.in(rooms.apiKeyOf(userId)));
    },

    /** Drops every socket opened with an API key (API keys were switched off). */
    disconnectApiKeys(): void {
      dropAll(io?.in(rooms.apiKeys));
    },

    /** Checks every open socket of this instance again now (what the minute's check does). */
    recheck: recheckSessions,

    async close(): Promise<void> {
      if (periodic) clearInterval(periodic);
      periodic = undefined;
      if (recheckTimer) clearTimeout(recheckTimer);
      recheckTimer = undefined;
      await rechecking;
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
