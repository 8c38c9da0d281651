import type { Server } from 'node:http';
import { AuthConfigSection } from '../auth';
import type { ConfigService } from '../config';
import type { LanConfig, LanConfigUpdate, LanStatus } from '../contracts/lan';
import { conflict } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import { lanAddresses, lanUrl, type NetworkInterfaces } from './lan-addresses';
import { LanConfigSection } from './lan-config';
import { openLanListener, type LanListener } from './lan-listener';

export interface LanSharingDeps {
  config: ConfigService;
  log: Logger;
  /** Source of the machine's interfaces (tests pass their own). */
  interfaces?: () => NetworkInterfaces;
  /** Address the LAN listener binds: every IPv4 interface. */
  bindHost?: string;
}

/** Why a port could not be opened, in words an admin can act on. */
function describeBindError(error: unknown, port: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use on this machine; choose another port`;
  if (code === 'EACCES') return `Port ${port} may not be opened by this user; choose another port`;
  return `Could not open port ${port}: ${(error as Error).message}`;
}

/**
 * "Share on local network": while on, the service also listens on every interface at a fixed
 * port, next to its loopback listener; turning it off closes that listener and cuts its open
 * connections at once. The setting lives in the `lan` config section, so it survives restarts
 * and works the same headless (`npm run serve`) and in the desktop app.
 */
export function createLanSharing(deps: LanSharingDeps) {
  const { config, log } = deps;
  const bindHost = deps.bindHost ?? '0.0.0.0';
  const interfaces = deps.interfaces;
  let target: Server | undefined;
  let listener: LanListener | undefined;
  let error: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const watchers = new Set<(status: LanStatus) => void>();

  /** Runs state changes one at a time, so concurrent toggles cannot open two listeners. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };

  /** Opens or closes the LAN listener to match `wanted`. Throws when the port cannot be opened. */
  async function reconcile(wanted: LanConfig): Promise<void> {
    if (listener && (!wanted.enabled || !target || listener.port !== wanted.port)) {
      await listener.close();
      listener = undefined;
      log.info('LAN sharing stopped');
    }
    if (wanted.enabled && target && !listener) {
      listener = await openLanListener(target, bindHost, wanted.port);
      log.info({ port: wanted.port, urls: lanAddresses(interfaces?.()).map((a) => lanUrl(a, wanted.port)) }, 'sharing on the local network');
    }
  }

  async function status(): Promise<LanStatus> {
    const setting = await config.get(LanConfigSection);
    const addresses = lanAddresses(interfaces?.());
    const warnings: string[] = [];
    if (setting.enabled) {
      const auth = await config.get(AuthConfigSection);
      if (auth.ENABLE_SIGNUP) {
        warnings.push(
          auth.DEFAULT_USER_ROLE === 'pending'
            ? 'Sign-up is open: anyone on your network can create an account (it waits for your approval).'
            : `Sign-up is open: anyone on your network can create an account and use it at once as '${auth.DEFAULT_USER_ROLE}'.`,
        );
      }
      if (addresses.length === 0) warnings.push('This machine has no LAN address right now: is it connected to a network?');
    }
    return {
      enabled: setting.enabled,
      port: setting.port,
      listening: listener !== undefined,
      addresses,
      urls: addresses.map((a) => lanUrl(a, setting.port)),
      warnings,
      error: setting.enabled && !listener ? error : null,
    };
  }

  function notify(): void {
    if (watchers.size === 0) return;
    void status().then(
      (current) => {
        for (const watcher of watchers) watcher(current);
      },
      () => undefined,
    );
  }

  return {
    /** Called by startServer once the main server listens: opens the LAN listener if sharing is on. Never throws. */
    attach(server: Server): Promise<void> {
      return serial(async () => {
        target = server;
        const setting = await config.get(LanConfigSection);
        try {
          await reconcile(setting);
          error = null;
        } catch (cause) {
          error = describeBindError(cause, setting.port);
          log.warn({ port: setting.port }, `LAN sharing is on but could not start: ${error}`);
        }
        notify();
      });
    },

    /** Closes the LAN listener and its connections (at shutdown, before the main server stops). */
    detach(): Promise<void> {
      return serial(async () => {
        target = undefined;
        await listener?.close();
        listener = undefined;
      });
    },

    /** The setting and what is actually listening. */
    status,

    /**
     * Changes the setting and applies it at once. A port that cannot be opened is a 409 and
     * leaves everything as it was (the previous listener keeps running).
     */
    update(patch: LanConfigUpdate): Promise<LanStatus> {
      return serial(async () => {
        const current = await config.get(LanConfigSection);
        const next: LanConfig = { enabled: patch.enabled ?? current.enabled, port: patch.port ?? current.port };
        try {
          await reconcile(next);
        } catch (cause) {
          await reconcile(current).catch(() => undefined);
          throw conflict(describeBindError(cause, next.port), 'LAN_PORT_UNAVAILABLE');
        }
        error = null;
        await config.set(LanConfigSection, next);
        notify();
        return status();
      });
    },

    /** Calls `watcher` with the new status after every change; returns the unsubscribe function. */
    onChange(watcher: (status: LanStatus) => void): () => void {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
  };
}

/** The LAN sharing service (services.lan). */
export type LanSharing = ReturnType<typeof createLanSharing>;
