import type { AuthContext } from './auth-context';

declare global {
  namespace Express {
    interface Request {
      /** Set by the authenticate middleware when credentials were valid. */
      auth?: AuthContext;
      /** A JSON parse failure, kept until a route that reads the body is reached. */
      bodyError?: Error;
    }
  }
}

export {};
