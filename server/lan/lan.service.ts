import type { Server } from 'node:http';
import { AuthConfigSection } from '../auth';
import type { ConfigService } from '../config';
import type { LanConfig, LanConfigUpdate, LanSignupInfo, LanStatus } from '../contracts/lan';
import { badRequest, conflict } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import { lanAddresses, lanUrl, type NetworkInterfaces } from './lan-addresses';
import { LanConfigSection } from './lan-config';
import { openLanListener, type LanListener } from './lan-listener';
import type { LanTls, LanTlsMaterial } from './lan-tls';

export interface LanSharingDeps {
  config: ConfigService;
  log: Logger;
  /** The LAN certificates (generated or the admin's). */
  tls: LanTls;
  /** True once an admin account exists: before that, the first visitor would become the owner. */
  hasAdmin: () => Promise<boolean>;
  /** True for `Host` values the service answers to (used by the HTTP → HTTPS redirect). */
  hostAllowed?: (host: string | undefined) => boolean;
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
  if ((error as { status?: number }).status !== undefined) return (error as Error).message;
  return `Could not open port ${port}: ${(error as Error).message}`;
}

const needsAdmin = () =>
  conflict('Create the administrator account on this machine before sharing: otherwise the first person on the network to open the page would become the owner', 'LAN_NEEDS_ADMIN');

/**
 * "Share on local network": while on, the service also listens on every interface at a fixed
 * port, next to its loopback listener, over HTTPS by default; turning it off closes that listener
 * and cuts its open connections at once. The setting lives in the `lan` config section, so it
 * survives restarts and works the same headless (`npm run serve`) and in the desktop app.
 */
export function createLanSharing(deps: LanSharingDeps) {
  const { config, log } = deps;
  const bindHost = deps.bindHost ?? '0.0.0.0';
  const interfaces = deps.interfaces;
  let target: Server | undefined;
  let listener: LanListener | undefined;
  /** The setting and certificate the open listener runs with. */
  let running: { setting: LanConfig; material: LanTlsMaterial | undefined } | undefined;
  let error: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const watchers = new Set<(status: LanStatus) => void>();

  /** Runs state changes one at a time, so concurrent toggles cannot open two listeners. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };

  async function material(setting: LanConfig): Promise<LanTlsMaterial | undefined> {
    if (setting.tls === 'off') return undefined;
    if (setting.tls === 'custom') {
      const custom = await deps.tls.custom();
      if (!custom) throw badRequest("No certificate has been supplied: send 'certificate' and 'private_key' (PEM) with tls 'custom'", 'LAN_CERTIFICATE_MISSING');
      return custom;
    }
    return deps.tls.generated();
  }

  const sameListener = (a: LanConfig, b: LanConfig) => a.port === b.port && a.tls === b.tls;

  /** Opens or closes the LAN listener to match `wanted`. Throws when the port cannot be opened. */
  async function reconcile(wanted: LanConfig, certificateChanged = false): Promise<void> {
    if (listener && (!wanted.enabled || !target || !running || !sameListener(running.setting, wanted) || certificateChanged)) {
      await listener.close();
      listener = undefined;
      running = undefined;
      log.info('LAN sharing stopped');
    }
    if (wanted.enabled && target && !listener) {
      if (!(await deps.hasAdmin())) throw needsAdmin();
      const tls = await material(wanted);
      listener = await openLanListener(target, bindHost, wanted.port, { tls, hostAllowed: deps.hostAllowed, log });
      running = { setting: wanted, material: tls };
      const scheme = tls ? 'https' : 'http';
      log.info({ port: wanted.port, urls: lanAddresses(interfaces?.()).map((a) => lanUrl(a, wanted.port, scheme)), fingerprint: tls?.fingerprint ?? null }, 'sharing on the local network');
      if (!tls) log.warn('LAN sharing runs over plain HTTP: passwords and chats cross the network unencrypted');
    }
  }

  async function signupInfo(): Promise<LanSignupInfo> {
    const auth = await config.get(AuthConfigSection);
    const role = auth.DEFAULT_USER_ROLE;
    const summary = !auth.ENABLE_SIGNUP
      ? 'Sign-up is closed: only accounts an administrator creates can sign in.'
      : role === 'pending'
        ? 'Anyone who can open the page can create an account; it waits for an administrator to approve it.'
        : `Anyone who can open the page can create an account and use it at once as '${role}'.`;
    return { open: auth.ENABLE_SIGNUP, default_role: role, summary };
  }

  async function status(): Promise<LanStatus> {
    const setting = await config.get(LanConfigSection);
    const addresses = lanAddresses(interfaces?.());
    const signup = await signupInfo();
    const warnings: string[] = [];
    if (setting.enabled) {
      if (signup.open) {
        warnings.push(
          signup.default_role === 'pending'
            ? 'Sign-up is open: anyone on your network can create an account (it waits for your approval).'
            : `Sign-up is open: anyone on your network can create an account and use it at once as '${signup.default_role}'.`,
        );
      }
      if (setting.tls === 'off') warnings.push('Sharing uses plain HTTP: passwords and chats cross the network unencrypted. Turn HTTPS on unless the network is trusted.');
      if (addresses.length === 0) warnings.push('This machine has no LAN address right now: is it connected to a network?');
    }
    // The certificate shown is the one in use, else the one that will be used (made now if need be).
    let shown: LanTlsMaterial | undefined = running?.material;
    if (!shown && setting.tls !== 'off') shown = setting.tls === 'custom' ? await deps.tls.custom() : await deps.tls.generated();
    const scheme = setting.tls === 'off' ? 'http' : 'https';
    return {
      enabled: setting.enabled,
      port: setting.port,
      listening: listener !== undefined,
      addresses,
      urls: addresses.map((a) => lanUrl(a, setting.port, scheme)),
      warnings,
      error: setting.enabled && !listener ? error : null,
      tls: setting.tls,
      fingerprint: setting.tls === 'off' ? null : (shown?.fingerprint ?? null),
      certificate_expires_at: setting.tls === 'off' ? null : (shown?.expiresAt ?? null),
      signup,
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
        running = undefined;
      });
    },

    /** The setting and what is actually listening. */
    status,

    /**
     * Changes the setting and applies it at once. A port that cannot be opened is a 409 and
     * leaves everything as it was (the previous listener keeps running). Sharing cannot be
     * switched on before an admin account exists (409). A supplied certificate and key are
     * checked, stored (key in the SecretStore) and select `custom`.
     */
    update(patch: LanConfigUpdate): Promise<LanStatus> {
      return serial(async () => {
        const current = await config.get(LanConfigSection);
        if ((patch.certificate === undefined) !== (patch.private_key === undefined)) {
          throw badRequest("Fields 'certificate' and 'private_key' must be sent together", 'LAN_CERTIFICATE_INCOMPLETE');
        }
        let certificateChanged = false;
        if (patch.certificate !== undefined && patch.private_key !== undefined) {
          if (patch.tls !== undefined && patch.tls !== 'custom') throw badRequest("Field 'tls' must be 'custom' when a certificate is sent", 'VALIDATION_FAILED');
          await deps.tls.saveCustom(patch.certificate, patch.private_key);
          certificateChanged = current.tls === 'custom';
        }
        const next: LanConfig = {
          enabled: patch.enabled ?? current.enabled,
          port: patch.port ?? current.port,
          tls: patch.certificate !== undefined ? 'custom' : (patch.tls ?? current.tls),
        };
        if (next.tls === 'custom' && !(await deps.tls.custom())) await material(next);
        if (next.enabled && !current.enabled && !(await deps.hasAdmin())) throw needsAdmin();
        try {
          await reconcile(next, certificateChanged);
        } catch (cause) {
          await reconcile(current).catch(() => undefined);
          if ((cause as { status?: number }).status !== undefined) throw cause;
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
