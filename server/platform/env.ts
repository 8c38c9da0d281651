import { z } from 'zod';
import { HEAP_MODES } from './heap-mode';
import { isValidCidr } from './http/trusted-proxies';
import { isMasterKey } from './master-key';
import { defaultDataDir } from './paths';
import { StartRefused } from './start-refused';

/** Options of `startServer`; every one may also come from the environment. */
export interface StartOptions {
  host?: string;
  /** A number, or the command line's text (validated with the other settings). */
  port?: number | string;
  dataDir?: string;
  /** `keychain`, `file`, or `auto` (keychain when available, else the encrypted file). */
  secretStore?: 'keychain' | 'file' | 'auto';
  logLevel?: string;
  /** Write logs to stdout too (default true). */
  logToStdout?: boolean;
  /** Folder of the built UI; defaults to dist/renderer. */
  rendererDir?: string;
  /** Environment to read settings from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

const PORT_RANGE = 'must be a whole number from 0 to 65535 (0 picks a free port)';
const Port = z.coerce.number({ error: PORT_RANGE }).int({ error: PORT_RANGE }).min(0, { error: PORT_RANGE }).max(65_535, { error: PORT_RANGE });
const NonNegativeInt = z.coerce.number().int().min(0);

const BootSchema = z.object({
  host: z.string().min(1),
  port: Port,
  dataDir: z.string().min(1),
  secretStore: z.enum(['keychain', 'file', 'auto']),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  logToStdout: z.boolean(),
  rendererDir: z.string().optional(),
  /** Failed sign-ins allowed per account per window; 0 turns limiting off. */
  signinRateLimit: NonNegativeInt,
  /** The window of the sign-in limit, in seconds. */
  signinRateWindowSeconds: NonNegativeInt.min(1),
  /** Header carrying the user's email when a trusted proxy signs people in (SSO). */
  trustedEmailHeader: z.string().optional(),
  trustedNameHeader: z.string().optional(),
  /** Largest upload accepted, in bytes. */
  maxUploadBytes: NonNegativeInt.min(1),
  /** Largest JSON body accepted, in bytes. */
  maxJsonBytes: NonNegativeInt.min(1024),
  /** Sign-ups allowed per IP per hour; 0 turns limiting off. */
  signupRateLimit: NonNegativeInt,
  /** Requests per minute allowed to each API key (or session) on the OpenAI-compatible /v1 API; 0 turns limiting off. */
  v1RateLimit: NonNegativeInt,
  /** Channel messages per minute allowed to each person (reactions twice as many, model answers a sixth); 0 turns limiting off. */
  channelRateLimit: NonNegativeInt,
  /** Origins allowed to call the API from a browser (CORS); empty = same origin only. */
  corsOrigins: z.array(z.url()).default([]),
  /** Addresses (CIDR list) of reverse proxies whose forwarded headers and SSO header are believed. */
  trustedProxies: z.array(z.string().refine(isValidCidr, { error: (issue) => `'${String(issue.input)}' is not an IP address or CIDR range` })).default([]),
  /** Origins people use to reach the service (absolute URLs the service builds come from here). */
  publicUrls: z.array(z.url({ protocol: /^https?$/, error: 'must be http(s) origins' })).default([]),
  /** Master key for the encrypted-file secret store (hex or base64, 32 bytes), if not kept in the data dir. */
  secretKey: z.string().refine(isMasterKey, { error: 'must be 32 bytes written as 64 hex characters or base64 (for example the output of: openssl rand -hex 32)' }).optional(),
  /** `postgres://…` selects PostgreSQL; absent = SQLite in the data dir. */
  databaseUrl: z.string().regex(/^postgres(ql)?:\/\/./i, { error: "must be a postgres:// URL" }).optional(),
  /** Connections in the PostgreSQL pool. */
  databasePoolSize: NonNegativeInt.min(1).max(1000),
  /** Folder every instance reads and writes (uploads, index snapshots, built-in model files); the data dir when unset. */
  sharedDir: z.string().min(1).optional(),
  /** How long a claimed background job stays its instance's without a renewal (ms); then another instance takes it over. */
  jobLeaseMs: NonNegativeInt.min(100).max(3_600_000),
  /** Seeds a first compatible provider (URL and key) when none is configured. */
  compatBaseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  compatApiKey: z.string().optional(),
  /** Seeds a first local (Ollama-style) provider when none is configured. */
  localBaseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Where the first-run setup looks for a local Ollama (its default port unless set). */
  ollamaProbeUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  /** PostgreSQL without pg_dump: the database version an admin has backed up before, which lets that update's migrations run. */
  confirmBackup: z.string().optional(),
  /** The pg_dump program that snapshots a PostgreSQL database before migrations (default: `pg_dump` on the PATH). */
  pgDump: z.string().min(1).optional(),
  /** Offline: no connection outside this computer, whatever the admin switch says. */
  offline: z.boolean(),
  /** Networks (CIDR) still reachable while offline, besides this computer (an office's own model server). */
  offlineAllowedNetworks: z.array(z.string().refine(isValidCidr, { error: (issue) => `'${String(issue.input)}' is not an IP address or CIDR range` })).default([]),
  /** `small`: V8's heap grows at most 40 % between full collections, its young generation stays at 8 MB (server/platform/heap-mode.ts); `fast`: V8's own choices. */
  heap: z.enum(HEAP_MODES, { error: 'must be small or fast' }),
});

/** Validated boot configuration. */
export type BootConfig = z.infer<typeof BootSchema>;

/** Raised when boot settings are invalid; lists every problem at once. */
export class BootConfigError extends StartRefused {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The environment variable of each boot setting (docs/configuration.md lists them all). */
export const ENV_NAMES: Partial<Record<keyof BootConfig, string>> = {
  host: 'PARLEY_HOST',
  port: 'PARLEY_PORT',
  dataDir: 'PARLEY_DATA_DIR',
  secretStore: 'PARLEY_SECRET_STORE',
  logLevel: 'PARLEY_LOG_LEVEL',
  signinRateLimit: 'PARLEY_SIGNIN_RATE_LIMIT',
  signinRateWindowSeconds: 'PARLEY_SIGNIN_RATE_WINDOW',
  trustedEmailHeader: 'PARLEY_TRUSTED_EMAIL_HEADER',
  trustedNameHeader: 'PARLEY_TRUSTED_NAME_HEADER',
  maxUploadBytes: 'PARLEY_MAX_UPLOAD_BYTES',
  maxJsonBytes: 'PARLEY_MAX_JSON_BYTES',
  secretKey: 'PARLEY_SECRET_KEY',
  signupRateLimit: 'PARLEY_SIGNUP_RATE_LIMIT',
  v1RateLimit: 'PARLEY_V1_RATE_LIMIT',
  channelRateLimit: 'PARLEY_CHANNEL_RATE_LIMIT',
  corsOrigins: 'PARLEY_CORS_ORIGINS',
  trustedProxies: 'PARLEY_TRUSTED_PROXIES',
  publicUrls: 'PARLEY_PUBLIC_URL',
  databaseUrl: 'PARLEY_DATABASE_URL',
  databasePoolSize: 'PARLEY_DATABASE_POOL_SIZE',
  sharedDir: 'PARLEY_SHARED_DIR',
  jobLeaseMs: 'PARLEY_JOB_LEASE_MS',
  compatBaseUrl: 'PARLEY_COMPAT_BASE_URL',
  compatApiKey: 'PARLEY_COMPAT_API_KEY',
  localBaseUrl: 'PARLEY_LOCAL_BASE_URL',
  ollamaProbeUrl: 'PARLEY_OLLAMA_PROBE_URL',
  confirmBackup: 'PARLEY_CONFIRM_BACKUP',
  pgDump: 'PARLEY_PG_DUMP',
  offline: 'PARLEY_OFFLINE',
  offlineAllowedNetworks: 'PARLEY_OFFLINE_ALLOWED_NETWORKS',
  heap: 'PARLEY_HEAP',
};

/** Settings the command line also takes as flags (`npm run serve -- --port 0`). */
const FLAGS = new Set<keyof BootConfig>(['host', 'port', 'dataDir']);

/** A comma-separated setting as a list of trimmed, non-empty items. */
function list(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `1`/`true`/`yes`/`on` as true, `0`/`false`/`no`/`off`/empty as false; anything else is left for the schema to refuse. */
function flag(value: unknown): boolean | string {
  const text = String(value ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(text)) return false;
  return text;
}

/** Reads options over environment over defaults, validates once, and reports every problem together. */
export function readBootConfig(options: StartOptions = {}): BootConfig {
  const env = options.env ?? process.env;
  const pick = <T>(explicit: T | undefined, name: keyof BootConfig, fallback?: T): T | string | undefined => {
    if (explicit !== undefined && explicit !== '') return explicit;
    const envName = ENV_NAMES[name];
    const fromEnv = envName ? env[envName] : undefined;
    return fromEnv !== undefined && fromEnv !== '' ? fromEnv : fallback;
  };
  const raw = {
    host: pick(options.host, 'host', '127.0.0.1'),
    port: pick(options.port, 'port', 8080),
    dataDir: pick(options.dataDir, 'dataDir', defaultDataDir()),
    secretStore: pick(options.secretStore, 'secretStore', 'auto'),
    logLevel: pick(options.logLevel, 'logLevel', 'info'),
    logToStdout: options.logToStdout ?? true,
    rendererDir: options.rendererDir,
    signinRateLimit: pick(undefined, 'signinRateLimit', 10),
    signinRateWindowSeconds: pick(undefined, 'signinRateWindowSeconds', 900),
    trustedEmailHeader: pick(undefined, 'trustedEmailHeader'),
    trustedNameHeader: pick(undefined, 'trustedNameHeader'),
    maxUploadBytes: pick(undefined, 'maxUploadBytes', 100 * 1024 * 1024),
    maxJsonBytes: pick(undefined, 'maxJsonBytes', 10 * 1024 * 1024),
    secretKey: pick(undefined, 'secretKey'),
    signupRateLimit: pick(undefined, 'signupRateLimit', 20),
    v1RateLimit: pick(undefined, 'v1RateLimit', 120),
    channelRateLimit: pick(undefined, 'channelRateLimit', 60),
    corsOrigins: String(pick(undefined, 'corsOrigins', '') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustedProxies: list(pick(undefined, 'trustedProxies', '')),
    publicUrls: list(pick(undefined, 'publicUrls', '')).map((u) => u.replace(/\/+$/, '')),
    databaseUrl: pick(undefined, 'databaseUrl'),
    databasePoolSize: pick(undefined, 'databasePoolSize', 10),
    sharedDir: pick(undefined, 'sharedDir'),
    jobLeaseMs: pick(undefined, 'jobLeaseMs', 30_000),
    compatBaseUrl: pick(undefined, 'compatBaseUrl'),
    compatApiKey: pick(undefined, 'compatApiKey'),
    localBaseUrl: pick(undefined, 'localBaseUrl'),
    ollamaProbeUrl: pick(undefined, 'ollamaProbeUrl', 'http://127.0.0.1:11434'),
    confirmBackup: pick(undefined, 'confirmBackup'),
    pgDump: pick(undefined, 'pgDump'),
    offline: flag(pick(undefined, 'offline', '0')),
    offlineAllowedNetworks: list(pick(undefined, 'offlineAllowedNetworks', '')),
    heap: String(pick(undefined, 'heap', 'small')).trim().toLowerCase(),
  };
  const result = BootSchema.superRefine((boot, ctx) => {
    if (boot.trustedEmailHeader && boot.trustedProxies.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['trustedProxies'], message: 'is required when PARLEY_TRUSTED_EMAIL_HEADER is set: list the addresses of the proxy that signs people in' });
    }
    // Instances can only share files if they share the database too (SQLite is one instance's, in its data dir).
    if (boot.sharedDir && !boot.databaseUrl) {
      ctx.addIssue({ code: 'custom', path: ['sharedDir'], message: 'needs PARLEY_DATABASE_URL: several instances share one PostgreSQL database and this folder' });
    }
  }).safeParse(raw);
  if (!result.success) {
    throw new BootConfigError(
      result.error.issues.map((issue) => {
        const key = String(issue.path[0]) as keyof BootConfig;
        const flag = key === 'dataDir' ? '--data-dir' : FLAGS.has(key) ? `--${key}` : undefined;
        const names = [flag, ENV_NAMES[key]].filter(Boolean).join(' or ');
        const source = names ? `${key} (${names})` : key;
        return `${source}: ${issue.message}`;
      }),
    );
  }
  return result.data;
}
