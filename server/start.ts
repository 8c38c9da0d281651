import { openDataDir } from './platform/data-dir';
import { readBootConfig } from './platform/env';
import { applyHeapMode } from './platform/heap-mode';
import { HTTP_TIMEOUTS } from './platform/http/connection-limits';
import { listenWhileStarting } from './platform/http/starting-listener';
import { createLogger } from './platform/log';
import { defaultRendererDir } from './platform/paths';
import type { RunningServer, StartServerOptions } from './start-options';

export type { RunningServer, StartServerOptions } from './start-options';

/**
 * Config → data dir → the port opens (`/health` answers from here on) → database, upgrade and
 * services (start-service.ts, loaded now: most of a start is reading the service's modules) → the
 * port's requests go to the app. Resolves once the service is ready, as before the port opened early.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const boot = readBootConfig(options);
  // First, before the service's modules and data fill the heap.
  applyHeapMode(boot.heap);
  boot.rendererDir ??= defaultRendererDir();
  // The data dir holds chats, uploads and the database: this OS account only (0700 folders, 0600 files).
  const dataDir = openDataDir(boot);
  const { log, flush } = createLogger({ level: boot.logLevel, dataDir: boot.dataDir, stdout: boot.logToStdout });
  let listener: Awaited<ReturnType<typeof listenWhileStarting>> | undefined;
  try {
    // The LAN listener (server/lan) takes these timeouts from this server.
    listener = await listenWhileStarting({ host: boot.host, port: boot.port, timeouts: { ...HTTP_TIMEOUTS, ...options.httpTimeouts }, log });
    const urlHost = boot.host.includes(':') ? `[${boot.host}]` : boot.host;
    const url = `http://${urlHost}:${listener.port}`;
    options.onListening?.(url);
    const { startService } = await import('./start-service');
    return await startService({ boot, options, dataDir, log, flush, listener, url });
  } catch (error) {
    await listener?.fail();
    dataDir.lock.release();
    await flush();
    throw error;
  }
}
