import type { Express } from 'express';
import type { Clock } from './platform/clock';
import type { MigrationList } from './platform/db/migrations';
import type { StartOptions } from './platform/env';
import type { HttpTimeouts } from './platform/http/connection-limits';
import type { ProcessStarter } from './platform/process-starter';
import type { SecretStore } from './secrets';
import type { Services } from './services';
import type { WebTestOptions } from './web';

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
  /**
   * Called once the port is open, before the database is upgraded and the services are built:
   * `/health` answers from then on, and other requests wait until the service is ready.
   */
  onListening?: (url: string) => void;
}
