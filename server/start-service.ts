import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import type { Socket } from 'node:net';
import path from 'node:path';
import { createApp } from './app';
import { systemClock } from './platform/clock';
import { DataDirError, dataDirFolder, inFolder, type OpenedDataDir } from './platform/data-dir';
import { checkFirstConnection } from './platform/db/first-connection';
import { closeDatabase, openDatabase } from './platform/db/knex';
import type { BootConfig } from './platform/env';
import { installLastResort } from './platform/last-resort';
import { isSameOrigin } from './platform/http/same-origin';
import type { StartingListener } from './platform/http/starting-listener';
import type { Logger } from './platform/log';
import { restrictFiles, writePrivateFile } from './platform/private-files';
import { createRealtimeHub, loadPostgresCluster } from './realtime';
import { watchTableChanges } from './platform/db/table-changes';
import { INSTALL_ID, selectSecretStore } from './secrets';
import { buildServices, type Services } from './services';
import type { RunningServer, StartServerOptions } from './start-options';
import { upgradeDatabase } from './upgrades';

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

/** What the light half of the start (start.ts) hands over: the settings, the data dir, the log and the open port. */
export interface StartContext {
  boot: BootConfig;
  options: StartServerOptions;
  dataDir: OpenedDataDir;
  log: Logger;
  flush(): Promise<void>;
  listener: StartingListener;
  url: string;
}

/**
 * The slow half of a start, loaded once the port is open: database, upgrade and migrations,
 * secrets, services, the app; then the listener hands its requests to the app. On failure the
 * services and the database are closed here; the listener, the lock and the log are start.ts's.
 */
export async function startService(ctx: StartContext): Promise<RunningServer> {
  const { boot, options, log, flush, listener, url } = ctx;
  const { lock, logFile, dbFile } = ctx.dataDir;
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
    // Before the listener hands over a request: the owner exists before anyone can sign up.
    if (options.desktopOwner !== undefined) await built.auth.ensureOwner(options.desktopOwner);

    const { server, sockets } = listener;
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
    listener.serve(app);
    const removeLastResort = options.ownsProcess ? installLastResort(log) : () => undefined;
    // LAN sharing (server/lan) adds a second listener on all interfaces when its setting is on.
    await built.lan.attach(server);
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
    return { url, host: boot.host, port: listener.port, dataDir: boot.dataDir, services: built, app, close };
  } catch (error) {
    // Background jobs (ingestion, graph builds) stop before the database closes.
    await services?.shutdown().catch(() => undefined);
    await db.destroy().catch(() => undefined);
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
