import type { AuthContext } from './auth-context';

declare global {
  namespace Express {
    interface Request {
      /** Set by the authenticating middleware when credentials were valid. */
      auth?: AuthContext;
    }
  }
}

export {};
