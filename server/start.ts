import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type { Express } from 'express';
import { createApp } from './app';
import { systemClock, type Clock } from './platform/clock';
import { DataDirError, dataDirFolder, inFolder, openDataDir } from './platform/data-dir';
import { checkFirstConnection } from './platform/db/first-connection';
import { closeDatabase, openDatabase } from './platform/db/knex';
import type { MigrationList } from './platform/db/migrations';
import { readBootConfig, type StartOptions } from './platform/env';
import { applyTimeouts, HTTP_TIMEOUTS, httpServerOptions, limitConnections, type HttpTimeouts } from './platform/http/connection-limits';
import { guarded } from './platform/http/guarded';
import { installLastResort } from './platform/last-resort';
import { isSameOrigin } from './platform/http/same-origin';
import type { ProcessStarter } from './platform/process-starter';
import { restrictFiles, writePrivateFile } from './platform/private-files';
import { createLogger } from './platform/log';
import { defaultRendererDir } from './platform/paths';
import { createRealtimeHub, loadPostgresCluster } from './realtime';
import { watchTableChanges } from './platform/db/table-changes';
import { INSTALL_ID, selectSecretStore, type SecretStore } from './secrets';
import { buildServices, type Services } from './services';
import type { WebTestOptions } from './web';
import { upgradeDatabase } from './upgrades';

/** A running service. */
export interface RunningServer {
  url: string;
  host: string;
  port: number;
  dataDir: string;
  /** The built services, for in-process callers (Electron, tests, benchmarks). */
  services: Services;
  /** The Express app (tests enumerate its routes). */
  app: Express;
  /** Stops accepting, drains open connections, closes the realtime channel and the database. */
  close(): Promise<void>;
}

export interface StartServerOptions extends StartOptions {
  /** A ready SecretStore (Electron passes the keychain one; tests may pass a memory one). */
  secrets?: SecretStore;
  clock?: Clock;
  /** Web search wiring for tests: a host name resolver, search engine fakes, a shorter page time limit. */
  web?: WebTestOptions;
  /** The migrations to apply (tests add a failing one); every migration when unset. */
  migrations?: MigrationList;
  /** Header, request and keep-alive timeouts of every listener (tests shorten them; default HTTP_TIMEOUTS). */
  httpTimeouts?: Partial<HttpTimeouts>;
  /**
   * The service owns the process (`npm run serve`, the desktop app): an error that escapes every
   * handler is logged and the service keeps serving, instead of the process ending (see
   * platform/last-resort.ts). Off for in-process callers such as tests.
   */
  ownsProcess?: boolean;
  /**
   * The desktop app's owner (the OS account's name): a new workspace gets this owner as its
   * primary admin before the service accepts a connection, so another account on the machine
   * that reaches the port first cannot sign up as the first admin (and have the desktop window
   * signed in as them).
   */
  desktopOwner?: string;
  /**
   * Starts the service's helper processes (the built-in model runtime). Default: Node's
   * child_process.fork. The packaged desktop app has Electron's RunAsNode fuse off, so it passes
   * one built on utilityProcess (main/process-starter.ts).
   */
  startProcess?: ProcessStarter;
}

/** Tables whose writes may end or change a session: sign-outs, API keys, accounts (roles, deletions). */
const SESSION_TABLES = new Set(['revoked_tokens', 'api_keys', 'users']);

function installId(dataDir: string): string {
  const file = path.join(dataDir, 'install-id');
  if (existsSync(file)) {
    const id = readFileSync(file, 'utf8').trim();
    // The id names this data dir's keychain entries: a damaged or edited file must not point elsewhere.
    if (!INSTALL_ID.test(id)) throw new DataDirError(`${file} is damaged (an install id is letters, digits and dashes); restore it from a backup of this data folder`);
    return id;
  }
  const id = randomUUID().slice(0, 8);
  writePrivateFile(file, id);
  return id;
}

/**
 * This process's name among the instances on one database: the owner of the background jobs it
 * claims and, on PostgreSQL, its connections' application_name (at most 63 bytes there).
 */
function instanceName(): string {
  return `parley ${hostname().slice(0, 32)} ${process.pid} ${randomUUID().slice(0, 8)}`;
}

/** Config → data dir → database and migrations → services → listen. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const boot = readBootConfig(options);
  boot.rendererDir ??= defaultRendererDir();
  // The data dir holds chats, uploads and the database: this OS account only (0700 folders, 0600 files).
  const { lock, logFile, dbFile } = openDataDir(boot);
  const { log, flush } = createLogger({ level: boot.logLevel, dataDir: boot.dataDir, stdout: boot.logToStdout });

  const instance = instanceName();
  const warn = (message: string) => log.warn(message.split('\n')[0]);
  const db = openDatabase({ dataDir: boot.dataDir, databaseUrl: boot.databaseUrl, poolSize: boot.databasePoolSize, applicationName: instance, warn });
  let services: Services | undefined;
  try {
    await checkFirstConnection(db, { databaseUrl: boot.databaseUrl, dbFile });
    // Refuses a newer Parley's database; snapshots one that holds data before migrating it.
    await upgradeDatabase({
      db,
      dataDir: boot.dataDir,
      databaseUrl: boot.databaseUrl,
      clock: options.clock ?? systemClock,
      log,
      pgDump: boot.pgDump,
      confirmBackup: boot.confirmBackup,
      migrations: options.migrations,
    });
    const id = inFolder(dataDirFolder(boot.dataDir), () => {
      restrictFiles(dbFile, `${dbFile}-wal`, `${dbFile}-shm`, logFile);
      return installId(boot.dataDir);
    });
    const secrets =
      options.secrets ??
      (await selectSecretStore({ mode: boot.secretStore, dataDir: boot.dataDir, installId: id, masterKey: boot.secretKey, log }));
    // Several instances on one PostgreSQL: socket.io events and presence span them all.
    const cluster = boot.databaseUrl ? (await loadPostgresCluster())(boot.databaseUrl, log) : undefined;
    const realtime = createRealtimeHub(log, cluster);
    services = await buildServices({ boot, db, log, clock: options.clock ?? systemClock, secrets, realtime, instance, webTest: options.web, startProcess: options.startProcess });
    const app = createApp(services);
    const built = services;
    if (options.desktopOwner !== undefined) await built.auth.ensureOwner(options.desktopOwner);

    const timeouts = { ...HTTP_TIMEOUTS, ...options.httpTimeouts };
    // The LAN listener (server/lan) takes these timeouts from this server.
    const server = applyTimeouts(createServer(httpServerOptions(timeouts), app), timeouts);
    const sockets = new Set<Socket>();
    // Loopback peers (the desktop window) are never refused; a bound-to-all host caps the others.
    const admit = limitConnections();
    server.on(
      'connection',
      guarded(log, 'the listener (connection)', (socket: Socket) => {
        if (!admit(socket)) return;
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      }, (socket: Socket) => socket.destroy()),
    );
    const trustedOrigins = new Set([...boot.corsOrigins, ...boot.publicUrls].map((o) => o.toLowerCase()));
    realtime.attach(
      server,
      (credential, recheck) => built.auth.authenticate(credential, { recheck }),
      (req) => built.hostAllowlist.allows(req.headers.host) && isSameOrigin(req, trustedOrigins),
    );
    // A signed-out, revoked or deleted session loses its live connection too (a demoted one its
    // rights), whichever instance made the change.
    watchTableChanges(db, (table) => {
      if (SESSION_TABLES.has(table)) realtime.recheckSessionsSoon();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(boot.port, boot.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const port = (server.address() as AddressInfo).port;
    const removeLastResort = options.ownsProcess ? installLastResort(log) : () => undefined;
    // LAN sharing (server/lan) adds a second listener on all interfaces when its setting is on.
    await built.lan.attach(server);
    const urlHost = boot.host.includes(':') ? `[${boot.host}]` : boot.host;
    const url = `http://${urlHost}:${port}`;
    lock.setUrl(url);
    log.info({ url, dataDir: boot.dataDir, sharedDir: boot.sharedDir, secrets: secrets.kind }, 'service started');
    if (boot.databaseUrl && !boot.sharedDir) {
      // Any instance may index a file another one received: without a shared folder it would not find the bytes.
      log.info('PostgreSQL without PARLEY_SHARED_DIR: uploads and indexes stay in this data dir; set PARLEY_SHARED_DIR on every instance before starting a second one');
    }

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        await built.lan.detach();
        await stopHttp(server, sockets);
        await realtime.close();
        await built.shutdown();
        await closeDatabase(db);
        removeLastResort();
        lock.release();
        log.info('Parley stopped');
        await flush();
      })();
      return closing;
    };
    return { url, host: boot.host, port, dataDir: boot.dataDir, services: built, app, close };
  } catch (error) {
    // Background jobs (ingestion, graph builds) stop before the database closes.
    await services?.shutdown().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    lock.release();
    await flush();
    throw error;
  }
}

/** Stops accepting connections, lets requests in flight finish briefly, then ends the rest. */
async function stopHttp(server: Server, sockets: Set<Socket>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = setTimeout(() => {
    for (const socket of sockets) socket.destroy();
  }, 2_000);
  deadline.unref();
  await closed;
  clearTimeout(deadline);
}
