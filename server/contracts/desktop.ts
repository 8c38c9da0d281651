import { z } from 'zod';

/**
 * `window.parley`: what the desktop shell's preload exposes to the UI. Absent in a browser
 * (LAN colleagues, `npm run serve`), so the UI must treat it as optional.
 */
export interface DesktopBridge {
  /** The desktop app's version. */
  appVersion(): Promise<string>;
  /** Whether this machine shares Parley on the local network, and at which addresses. */
  lanSharing(): Promise<DesktopLanState>;
  /** Calls `listener` whenever LAN sharing changes (tray toggle, admin setting); returns the unsubscribe function. */
  onLanSharingChange(listener: (state: DesktopLanState) => void): () => void;
  /** Opens an http(s) link in the system browser; resolves false when the link was refused. */
  openExternal(url: string): Promise<boolean>;
  /** Tells the shell the UI's language, so its menus, tray and dialogs follow the person's choice. */
  setLanguage(code: string): Promise<void>;
  /** Shows a system notification (the shell words it from its catalogs); clicking it opens the place it is about. */
  notify(notice: DesktopNotice): Promise<void>;
  /** Calls `listener` with a path of the UI to open (a clicked notification); returns the unsubscribe function. */
  onOpenPath(listener: (path: string) => void): () => void;
}

/** What a system notification is about: someone mentioned the person in a channel. */
export interface DesktopNotice {
  kind: 'channel-mention';
  channel_id: string;
  channel_name: string;
  /** Who wrote the message. */
  author: string;
  /** The message's first characters. */
  preview: string;
  /** It pinged every member (@all, @here). */
  everyone: boolean;
}

/** The LAN sharing state the UI may show. */
export interface DesktopLanState {
  enabled: boolean;
  listening: boolean;
  urls: string[];
  warnings: string[];
}

/** GET /api/v1/desktop/setup: what the desktop app's first-run setup screen offers. */
export const FirstRunSetup = z.object({
  /** True while no provider connection is configured (the app then opens on the setup screen). */
  needed: z.boolean(),
  /** A local Ollama on its default address, when one answers there. */
  ollama: z.object({ url: z.string(), found: z.boolean(), models: z.number() }),
  /** Where secrets are kept: `file` is the encrypted-file fallback (no OS keychain answered). */
  secret_store: z.enum(['keychain', 'file', 'memory']),
});
export type FirstRunSetup = z.infer<typeof FirstRunSetup>;
