import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { ClusterAdapter, type ClusterMessage, type ClusterResponse, type Offset } from 'socket.io-adapter';
import type { Namespace } from 'socket.io';
import { io as connectClient, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';

import type { AuthContext } from '../session';
import type { PostgresCluster } from './postgres-cluster';
import { createRealtimeHub } from './realtime-hub';

/** A cluster whose database answers slowly: every broadcast waits until `release` is called. */
function slowCluster(): { cluster: PostgresCluster; release(): void } {
  let release = () => {};
  const published = new Promise<void>((resolve) => (release = resolve));
  class SlowAdapter extends ClusterAdapter {
    constructor(nsp: Namespace) {
      super(nsp);
    }
    protected async doPublish(_message: ClusterMessage): Promise<Offset> {
      await published;
      return '0';
    }
    protected async doPublishResponse(_uid: string, _response: ClusterResponse): Promise<void> {
      await published;
    }
  }
  const cluster: PostgresCluster = {
    attach: (server) => void server.adapter(SlowAdapter),
    localPresenceChanged: () => undefined,
    remoteUserIds: () => new Set(),
    leave: async () => undefined,
    close: async () => undefined,
  };
  return { cluster, release: () => release() };
}

const user = (id: string) => ({ id, name: id, email: `${id}@example.test`, role: 'user' as const, profile_image_url: '', is_primary_admin: false });
const sessions: Record<string, AuthContext> = {
  'token-a': { user: user('a'), via: 'jwt', tokenId: 'ta', credential: 'token-a' },
  'token-b': { user: user('a'), via: 'jwt', tokenId: 'tb', credential: 'token-b' },
  'sk-a': { user: user('a'), via: 'api_key', credential: 'sk-a' },
};

describe('realtime hub with a cluster whose database is slow', () => {
  let http: Server | undefined;
  let closeAll: (() => Promise<void>) | undefined;
  const sockets: Socket[] = [];

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await closeAll?.();
    await new Promise((resolve) => (http?.listening ? http.close(resolve) : resolve(undefined)));
  });

  async function start() {
    const slow = slowCluster();
    const hub = createRealtimeHub(pino({ level: 'silent' }), slow.cluster);
    http = createServer();
    hub.attach(http, async (credential) => sessions[credential] ?? 'invalid');
    await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
    closeAll = async () => {
      slow.release();
      await hub.close();
    };
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const connect = (token: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
        sockets.push(socket);
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    return { hub, connect };
  }

  /** Resolves true when `socket` is closed by the service within `ms`. */
  const closedWithin = (socket: Socket, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        resolve(reason === 'io server disconnect');
      });
    });

  it('closes this instance’s sockets of an ended session at once, without waiting for the broadcast to the others', async () => {
    const { hub, connect } = await start();
    const [a, b, key] = await Promise.all([connect('token-a'), connect('token-b'), connect('sk-a')]);

    const aClosed = closedWithin(a, 250);
    hub.disconnectToken('ta');
    expect(await aClosed).toBe(true);

    const keyClosed = closedWithin(key, 250);
    hub.disconnectApiKeys();
    expect(await keyClosed).toBe(true);

    expect(b.connected).toBe(true);
    const bClosed = closedWithin(b, 250);
    hub.disconnectUser('a');
    expect(await bClosed).toBe(true);
  });

  it('keeps the session that stays when the other sessions of the account end', async () => {
    const { hub, connect } = await start();
    const [a, b] = await Promise.all([connect('token-a'), connect('token-b')]);
    const bClosed = closedWithin(b, 250);
    hub.disconnectTokensOf('a', 'ta');
    expect(await bClosed).toBe(true);
    expect(a.connected).toBe(true);
  });
});
