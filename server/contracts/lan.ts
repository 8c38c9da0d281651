import { z } from 'zod';

/** The default fixed port of LAN sharing: colleagues bookmark it, so it does not change between runs. */
export const DEFAULT_LAN_PORT = 8765;

/**
 * How the LAN listener speaks: `generated` HTTPS with a certificate made on first share (the
 * default), `custom` HTTPS with a certificate and key the admin supplied, `off` plain HTTP
 * (passwords and chats cross the network readable by anyone on it).
 */
export const LanTlsMode = z.enum(['generated', 'custom', 'off']);
export type LanTlsMode = z.infer<typeof LanTlsMode>;

/** The stored "Share on local network" admin setting. */
export const LanConfig = z.object({
  /** Whether the service also listens on every network interface. Off by default. */
  enabled: z.boolean(),
  /** The fixed port of the LAN listener (unprivileged ports only). */
  port: z.number().int().min(1024, 'must be between 1024 and 65535').max(65_535, 'must be between 1024 and 65535'),
  /** HTTPS with the generated certificate (default), with the admin's own, or plain HTTP. */
  tls: LanTlsMode.default('generated'),
});
export type LanConfig = z.infer<typeof LanConfig>;

const Pem = (what: string) => z.string().min(1).max(200_000, `must be at most 200000 characters (one PEM ${what})`);

/**
 * POST /api/v1/configs/lan: any subset of the setting; unknown fields are ignored. `certificate`
 * and `private_key` (PEM, together) install the admin's own certificate and select `custom`.
 */
export const LanConfigUpdate = z.object({
  enabled: z.boolean().optional(),
  port: LanConfig.shape.port.optional(),
  tls: LanTlsMode.optional(),
  certificate: Pem('certificate').optional(),
  private_key: Pem('private key').optional(),
});
export type LanConfigUpdate = z.infer<typeof LanConfigUpdate>;

/** Who may create an account on this workspace, for the LAN page and the tray. */
export const LanSignupInfo = z.object({
  /** Whether sign-up is open to anyone who can reach the page. */
  open: z.boolean(),
  /** The role a new account gets (`pending` waits for an admin). */
  default_role: z.enum(['pending', 'user', 'admin']),
  /** One sentence saying who can sign up. */
  summary: z.string(),
});
export type LanSignupInfo = z.infer<typeof LanSignupInfo>;

/** GET/POST /api/v1/configs/lan answer: the setting, and what is actually happening. */
export const LanStatus = z.object({
  enabled: z.boolean(),
  port: z.number(),
  /** True while the LAN listener is open (false when off, or when the port could not be opened at start). */
  listening: z.boolean(),
  /** This machine's LAN IPv4 addresses. */
  addresses: z.array(z.string()),
  /** `https://<address>:<port>` (or `http://` with TLS off) for each address: what to give to colleagues. */
  urls: z.array(z.string()),
  /** Things the admin should know while sharing (for example: sign-up is open, plain HTTP). */
  warnings: z.array(z.string()),
  /** Why the listener is not open although sharing is on, else null. */
  error: z.string().nullable(),
  /** The TLS mode in use (present in every answer of the service). */
  tls: LanTlsMode.optional(),
  /** SHA-256 fingerprint (`AB:CD:…`) of the certificate colleagues' browsers are shown; null over plain HTTP. */
  fingerprint: z.string().nullable().optional(),
  /** When the certificate expires (epoch seconds); null over plain HTTP. */
  certificate_expires_at: z.number().nullable().optional(),
  /** Who can sign up (present in every answer of the service). */
  signup: LanSignupInfo.optional(),
  /**
   * True when the signed-in admin has no password yet (the desktop owner): turning sharing on
   * is refused until they set one, since other devices sign in with it. Present in the HTTP answers.
   */
  password_required: z.boolean().optional(),
});
export type LanStatus = z.infer<typeof LanStatus>;

/**
 * The text of a LAN QR code: the URL, with the certificate fingerprint in its fragment so that the
 * person scanning can compare it with what their browser shows (the fragment never reaches the
 * server and the UI ignores it).
 */
export function lanQrText(url: string, fingerprint: string | null | undefined): string {
  return fingerprint ? `${url}/#sha256=${fingerprint}` : url;
}
