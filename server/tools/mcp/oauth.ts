import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Clock } from '../../platform/clock';
import { randomToken } from '../../platform/ids';
import type { Logger } from '../../platform/log';
import type { SecretStore } from '../../secrets';
import { loadExports } from '../../platform/library-exports';
import { outboundFetch } from '../../platform/net/outbound';

/** The SDK's OAuth client flow, loaded on first use. */
const loadMcpAuth = () => loadExports(import('@modelcontextprotocol/sdk/client/auth.js'), '@modelcontextprotocol/sdk/client/auth.js', 'auth');

/** Discovery, registration and token requests ask the outbound guard first (offline mode). */
const mcpFetch = outboundFetch('mcp-oauth');

/** The Parley route the authorization server sends the user back to. */
export const OAUTH_CALLBACK_PATH = '/api/v1/tools/oauth/callback';

/** Tokens as stored: the server's answer plus when the access token expires (epoch seconds). */
type StoredTokens = OAuthTokens & { expires_at?: number };

/** Secret-store names of one tool server. Everything of a server shares the prefix. */
export const serverSecretPrefix = (serverId: string) => `tool-server:${serverId}:`;
const clientName = (serverId: string) => `${serverSecretPrefix(serverId)}oauth-client`;
const tokensName = (serverId: string, userId: string) => `${serverSecretPrefix(serverId)}oauth-tokens:${userId}`;

/** An OAuth 2.1 MCP server as the flow needs it. */
export interface OAuthServer {
  id: string;
  /** The MCP endpoint. */
  url: string;
}

interface PendingAuthorization {
  serverId: string;
  serverUrl: string;
  userId: string;
  redirectUrl: string;
  verifier: string;
  expiresAt: number;
}

/** Refresh when the access token has less than this many seconds left. */
const REFRESH_MARGIN_SECONDS = 60;
/** How long a started authorization waits for its callback. */
const PENDING_SECONDS = 600;

/**
 * OAuth 2.1 for MCP servers with the SDK's client pieces: discovery, Dynamic Client
 * Registration (one registration per server, shared by all users), authorization code with
 * PKCE, code exchange at Parley's callback, refresh before expiry. Client registrations and
 * tokens (per user) live in the secret store; pending authorizations in memory.
 */
export function createMcpOAuth(deps: { secrets: SecretStore; clock: Clock; log: Logger }) {
  const { secrets, clock, log } = deps;
  const pending = new Map<string, PendingAuthorization>();
  const discovery = new Map<string, OAuthDiscoveryState>();

  async function readJsonSecret<T>(name: string): Promise<T | undefined> {
    const text = await secrets.get(name);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  /** An SDK client provider bound to one server, one user and one redirect URL. */
  function providerFor(server: OAuthServer, userId: string, redirectUrl: string, state?: string) {
    let verifier = '';
    let authorizationUrl: URL | undefined;
    const provider: OAuthClientProvider & { readonly authorizationUrl: URL | undefined; setVerifier(v: string): void } = {
      get redirectUrl() {
        return redirectUrl;
      },
      get clientMetadata(): OAuthClientMetadata {
        return {
          client_name: 'Parley',
          redirect_uris: [redirectUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        };
      },
      state: () => state ?? randomToken(24),
      async clientInformation() {
        const info = await readJsonSecret<OAuthClientInformationMixed & { redirect_uris?: string[] }>(clientName(server.id));
        // A registration made for another Parley address cannot take this redirect: register again.
        if (info?.redirect_uris && !info.redirect_uris.includes(redirectUrl)) return undefined;
        return info;
      },
      async saveClientInformation(info) {
        await secrets.set(clientName(server.id), JSON.stringify(info));
      },
      async tokens() {
        return readJsonSecret<StoredTokens>(tokensName(server.id, userId));
      },
      async saveTokens(tokens) {
        const stored: StoredTokens = { ...tokens, ...(tokens.expires_in ? { expires_at: clock.now() + tokens.expires_in } : {}) };
        await secrets.set(tokensName(server.id, userId), JSON.stringify(stored));
      },
      redirectToAuthorization(url) {
        authorizationUrl = url;
      },
      saveCodeVerifier(v) {
        verifier = v;
      },
      codeVerifier: () => verifier,
      setVerifier(v: string) {
        verifier = v;
      },
      get authorizationUrl() {
        return authorizationUrl;
      },
      saveDiscoveryState(value) {
        discovery.set(server.id, value);
      },
      discoveryState: () => discovery.get(server.id),
      async invalidateCredentials(scope) {
        if (scope === 'all' || scope === 'tokens') await secrets.delete(tokensName(server.id, userId));
        if (scope === 'all' || scope === 'client') await secrets.delete(clientName(server.id));
        if (scope === 'all' || scope === 'discovery') discovery.delete(server.id);
      },
    };
    return provider;
  }

  /** The redirect URL a stored registration was made for, if any. */
  async function registeredRedirect(serverId: string): Promise<string | undefined> {
    const info = await readJsonSecret<{ redirect_uris?: string[] }>(clientName(serverId));
    return info?.redirect_uris?.[0];
  }

  function prune(): void {
    const now = clock.now();
    for (const [state, entry] of pending) if (entry.expiresAt < now) pending.delete(state);
  }

  return {
    /**
     * Starts an authorization for `userId`: discovers the server's authorization server,
     * registers Parley when needed, and answers the URL to send the user to. `null` when a
     * stored refresh token was enough to get a fresh access token.
     */
    async authorizationUrl(server: OAuthServer, userId: string, redirectUrl: string): Promise<string | null> {
      const { auth } = await loadMcpAuth();
      prune();
      const state = randomToken(24);
      const provider = providerFor(server, userId, redirectUrl, state);
      const result = await auth(provider, { serverUrl: server.url, fetchFn: mcpFetch });
      if (result === 'AUTHORIZED') return null;
      if (!provider.authorizationUrl) throw new Error('The authorization server gave no authorization URL');
      pending.set(state, { serverId: server.id, serverUrl: server.url, userId, redirectUrl, verifier: await provider.codeVerifier(), expiresAt: clock.now() + PENDING_SECONDS });
      return provider.authorizationUrl.href;
    },

    /** The callback: exchanges `code` for tokens of the user who started the authorization `state`. */
    async finish(state: string, code: string): Promise<{ serverId: string; userId: string }> {
      prune();
      const entry = pending.get(state);
      if (!entry) throw new Error('This authorization is unknown or expired; start again from Parley');
      pending.delete(state);
      const { auth } = await loadMcpAuth();
      const provider = providerFor({ id: entry.serverId, url: entry.serverUrl }, entry.userId, entry.redirectUrl, state);
      provider.setVerifier(entry.verifier);
      await auth(provider, { serverUrl: entry.serverUrl, authorizationCode: code, fetchFn: mcpFetch });
      return { serverId: entry.serverId, userId: entry.userId };
    },

    /**
     * A usable access token of `userId` for the server, refreshed first when it expires within
     * a minute. `undefined` when the user has not authorized (or the refresh was refused).
     */
    async accessToken(server: OAuthServer, userId: string): Promise<string | undefined> {
      const tokens = await readJsonSecret<StoredTokens>(tokensName(server.id, userId));
      if (!tokens?.access_token) return undefined;
      const expiring = tokens.expires_at !== undefined && tokens.expires_at - clock.now() < REFRESH_MARGIN_SECONDS;
      if (!expiring) return tokens.access_token;
      if (!tokens.refresh_token) {
        if (tokens.expires_at! > clock.now()) return tokens.access_token;
        await secrets.delete(tokensName(server.id, userId));
        return undefined;
      }
      const redirect = (await registeredRedirect(server.id)) ?? `http://127.0.0.1${OAUTH_CALLBACK_PATH}`;
      const { auth } = await loadMcpAuth();
      try {
        const result = await auth(providerFor(server, userId, redirect), { serverUrl: server.url, fetchFn: mcpFetch });
        if (result === 'AUTHORIZED') return (await readJsonSecret<StoredTokens>(tokensName(server.id, userId)))?.access_token;
      } catch (error) {
        log.warn({ err: error, server: server.id }, 'refreshing an MCP OAuth token failed');
      }
      await secrets.delete(tokensName(server.id, userId));
      return undefined;
    },

    /** An SDK auth provider for the transport, so a 401 mid-session refreshes the token once. */
    async transportProvider(server: OAuthServer, userId: string): Promise<OAuthClientProvider> {
      const redirect = (await registeredRedirect(server.id)) ?? `http://127.0.0.1${OAUTH_CALLBACK_PATH}`;
      return providerFor(server, userId, redirect);
    },

    /** Whether the user holds tokens for the server. */
    async hasTokens(serverId: string, userId: string): Promise<boolean> {
      return (await secrets.get(tokensName(serverId, userId))) !== null;
    },

    /** The redirect URL of the server's registration, if Parley has registered. */
    registeredRedirect,

    /** Signs one user out of a server: drops their tokens. */
    async forgetUser(serverId: string, userId: string): Promise<void> {
      await secrets.delete(tokensName(serverId, userId));
    },

    /** Drops a deleted user's tokens on every server. */
    async forgetUserEverywhere(userId: string): Promise<void> {
      for (const name of await secrets.list('tool-server:')) if (name.endsWith(`:oauth-tokens:${userId}`)) await secrets.delete(name);
    },

    /** Drops the server's registration, every user's tokens and pending authorizations. */
    async forget(serverId: string): Promise<void> {
      for (const name of await secrets.list(serverSecretPrefix(serverId))) await secrets.delete(name);
      discovery.delete(serverId);
      for (const [state, entry] of pending) if (entry.serverId === serverId) pending.delete(state);
    },
  };
}
export type McpOAuth = ReturnType<typeof createMcpOAuth>;
