import { createServer } from 'node:net';
import type { ProcessStarter, RunningServer, StartServerOptions } from '../server';
import type { ShellLog } from './facade';

/** Which SecretStore the desktop app asks the service for. */
export type SecretStoreMode = 'keychain' | 'file' | 'auto';

/**
 * The OS keychain on macOS and Windows, where it always exists, so a keychain failure is an
 * error rather than a silent downgrade. On Linux a Secret Service (GNOME Keyring, KWallet) may
 * be missing, so `auto` falls back to the encrypted file with its warning. PARLEY_SECRET_STORE
 * overrides both.
 */
export function chooseSecretStore(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): SecretStoreMode {
  const forced = env.PARLEY_SECRET_STORE;
  if (forced === 'keychain' || forced === 'file' || forced === 'auto') return forced;
  return platform === 'linux' ? 'auto' : 'keychain';
}

/** True when nothing listens on 127.0.0.1:`port` right now. */
export function isLoopbackPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

export interface HostOptions {
  startServer: (options: StartServerOptions) => Promise<RunningServer>;
  dataDir: string;
  secretStore: SecretStoreMode;
  /** The port of the last run, kept so the UI keeps its origin (cookies, local storage). */
  rememberedPort?: number;
  isPortFree?: (port: number) => Promise<boolean>;
  /** The desktop owner's name: a new workspace gets its owner before the service listens. */
  ownerName?: string;
  /** Starts the service's helper processes (Electron's utilityProcess in the app; see process-starter.ts). */
  startProcess?: ProcessStarter;
  log: ShellLog;
}

/**
 * Starts the service in-process, on loopback only: the remembered port when it is free, else
 * any free port; as the owner of this process, and with the desktop owner in place before the
 * first connection. LAN sharing, when on, adds its own listener (server/lan).
 */
export async function startHost(options: HostOptions): Promise<RunningServer> {
  const isFree = options.isPortFree ?? isLoopbackPortFree;
  let port = 0;
  if (options.rememberedPort !== undefined) {
    if (await isFree(options.rememberedPort)) port = options.rememberedPort;
    else options.log.warn(`port ${options.rememberedPort} is taken; starting on a free port (you may need to sign in again)`);
  }
  return options.startServer({
    host: '127.0.0.1',
    port,
    dataDir: options.dataDir,
    secretStore: options.secretStore,
    ownsProcess: true,
    desktopOwner: options.ownerName ?? 'Owner',
    ...(options.startProcess ? { startProcess: options.startProcess } : {}),
  });
}
