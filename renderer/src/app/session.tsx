import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SessionResponse } from '../../../server/contracts/auth';
import type { PublicConfig } from '../../../server/contracts/public-config';
import { authApi } from '../api/auth';
import { ApiError, onUnauthorized, setToken } from '../api/http';

type State =
  | { status: 'loading' }
  | { status: 'unreachable'; error: unknown }
  | { status: 'signedOut'; config: PublicConfig | null; notice?: string }
  | { status: 'signedIn'; user: SessionResponse; config: PublicConfig | null };

interface SessionApi {
  state: State;
  /** Keeps a fresh session answer (sign-in, sign-up, refresh). */
  accept(session: SessionResponse): void;
  signOut(): Promise<void>;
  /** Re-reads the session from the service (for example while waiting for approval). */
  refresh(): Promise<void>;
  /** Re-reads the public config and the session. */
  reload(): Promise<void>;
  /** Re-reads the public config alone (an admin switch turned a feature on or off). */
  refreshConfig(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

async function readConfig(): Promise<PublicConfig | null> {
  try {
    return await authApi.publicConfig();
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) throw error;
    return null;
  }
}

/** Holds who is signed in, loaded once at start from GET /auths/ (cookie or stored token). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const queryClient = useQueryClient();

  const load = useCallback(async () => {
    try {
      const config = await readConfig();
      try {
        const user = await authApi.session();
        if (user.token) setToken(user.token);
        setState({ status: 'signedIn', user, config });
      } catch (error) {
        if (error instanceof ApiError && error.status === 0) throw error;
        setToken(null);
        setState({ status: 'signedOut', config });
      }
    } catch (error) {
      setState({ status: 'unreachable', error });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(
    () =>
      onUnauthorized(() => {
        setToken(null);
        queryClient.clear();
        setState((s) => ({ status: 'signedOut', config: s.status === 'signedIn' ? s.config : null, notice: 'expired' }));
      }),
    [queryClient],
  );

  const accept = useCallback((user: SessionResponse) => {
    setToken(user.token);
    setState((s) => ({ status: 'signedIn', user, config: 'config' in s ? s.config : null }));
    // Signed in, the config also tells the features an admin turned on (code, images).
    void readConfig()
      .then((config) => config && setState((s) => (s.status === 'signedIn' ? { ...s, config } : s)))
      .catch(() => undefined);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await authApi.signout();
    } catch {
      /* signed out locally either way */
    }
    setToken(null);
    queryClient.clear();
    const config = await readConfig().catch(() => null);
    setState({ status: 'signedOut', config });
  }, [queryClient]);

  const refresh = useCallback(async () => {
    try {
      const user = await authApi.session();
      if (user.token) setToken(user.token);
      setState((s) => ({ status: 'signedIn', user, config: 'config' in s ? s.config : null }));
    } catch {
      /* keep the current state; a 401 signs out through onUnauthorized */
    }
  }, []);

  const refreshConfig = useCallback(async () => {
    const config = await readConfig().catch(() => null);
    if (config) setState((s) => (s.status === 'signedIn' ? { ...s, config } : s));
  }, []);

  const value = useMemo<SessionApi>(() => ({ state, accept, signOut, refresh, reload: load, refreshConfig }), [state, accept, signOut, refresh, load, refreshConfig]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session API. */
export function useSession(): SessionApi {
  const ctx = useContext(SessionContext);
  // eslint-disable-next-line no-restricted-syntax -- a programming error, never shown to people
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}

/** The signed-in user (only inside signed-in screens). */
export function useUser(): SessionResponse {
  const { state } = useSession();
  // eslint-disable-next-line no-restricted-syntax -- a programming error, never shown to people
  if (state.status !== 'signedIn') throw new Error('useUser while signed out');
  return state.user;
}
