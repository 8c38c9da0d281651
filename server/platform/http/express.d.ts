declare global {
  namespace Express {
    interface Request {
      /** A JSON parse failure, kept until a route that reads the body is reached. */
      bodyError?: Error;
    }
  }
}

export {};
